"""Compatibilities of an item (endpoints 8 to 10, 12 to 20)"""
from app.http.smorest import Blueprint

blp = Blueprint("compatibilities", __name__, description="Compatibilities of an item (endpoints 8 to 10, 12 to 20)")
