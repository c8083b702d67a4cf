"""Compatibility snapshots of orders (endpoint 21)"""
from app.http.smorest import Blueprint

blp = Blueprint("orders", __name__, description="Compatibility snapshots of orders (endpoint 21)")
