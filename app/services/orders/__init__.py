"""Orders: the compatibility snapshot of an order with an incompatibility claim (endpoint 21)."""
from app.services.orders.snapshots import order_snapshot

__all__ = ["order_snapshot"]
