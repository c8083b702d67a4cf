"""Size charts (endpoints 22 to 26) and chart management"""
from app.http.smorest import Blueprint

blp = Blueprint("charts", __name__, description="Size charts (endpoints 22 to 26) and chart management")
