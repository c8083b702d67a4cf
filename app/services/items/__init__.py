"""Listings: reading an item (endpoint 3) and a seller's item searches by compatibility state (4, 5)."""
from app.services.items.reads import get_item, search_seller_items
from app.services.items.scans import scan_seller_items

__all__ = ["get_item", "scan_seller_items", "search_seller_items"]
