"""Items and seller item searches (endpoints 3, 4, 5, 11, 6)"""
from app.http.smorest import Blueprint

blp = Blueprint("items", __name__, description="Items and seller item searches (endpoints 3, 4, 5, 11, 6)")
