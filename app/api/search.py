"""Item search of a site, with paging, sorts and filters"""
from app.http.smorest import Blueprint

blp = Blueprint("search", __name__, description="Item search of a site, with paging, sorts and filters")
