"""Buyer fitment (extensions.md B): the site search narrowed to the items that fit a vehicle or a
partly known one (B1, B2), and one item checked against one vehicle (B3)."""
from app.services.fitment.check import CompatibilityCheck, check_compatibility
from app.services.fitment.search import search_fitting_items

__all__ = ["CompatibilityCheck", "check_compatibility", "search_fitting_items"]
