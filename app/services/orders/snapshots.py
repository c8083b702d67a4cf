"""The compatibility snapshot of an order (endpoint 21), with what has changed since derived."""
import datetime

from peewee import fn

from app.errors import ApiError
from app.models import Claim, Compatibility, Item, Order
from app.services.row_keys.lookups import product_key_of

NOT_FOUND = "Compatibility snapshot for the order id not found"


def _parse_time(value):
    """Stored snapshot times are ISO 8601 text; naive UTC datetimes for the schema."""
    if value is None or isinstance(value, datetime.datetime):
        return value
    try:
        parsed = datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone(datetime.UTC).replace(tzinfo=None) if parsed.tzinfo else parsed


def _current_compatibility_id(item_key, product_id, is_universal):
    """The item's (by its key) compatibility that covers the product now: its own entry, else the
    universal one."""
    if product_id is not None:
        row = Compatibility.select(Compatibility.id).where(
            Compatibility.item == item_key, Compatibility.product == product_key_of(product_id)).scalar()
        if row is not None:
            return row
    if is_universal:
        return Compatibility.select(Compatibility.id).where(
            Compatibility.item == item_key, Compatibility.universal == True).scalar()  # noqa: E712
    return None


def order_snapshot(order_id, caller_id):
    """The snapshot, checked in this order so that only the seller learns about claims:
    400 for an unknown, malformed or snapshot-less order, 403 for a caller who is not the item's
    seller, 403 for an order without claims."""
    order_key = int(order_id) if str(order_id).isdigit() and len(str(order_id)) <= 18 else None
    row = None
    if order_key is not None:
        row = (Order.select(Order.item.alias("item_id"), Order.snapshot, Order.date_created,
                            Item.key.alias("item_key"), Item.seller.alias("seller_id"), Item.is_universal,
                            fn.EXISTS(Claim.select(Claim.id).where(Claim.order == Order.id)).alias("has_claims"))
               .join(Item).where(Order.id == order_key).dicts().first())
    if row is None or not row["snapshot"]:
        raise ApiError("snapshot_not_found", NOT_FOUND)
    if row["seller_id"] != caller_id:
        raise ApiError("forbidden", "Caller must be the seller of the item")
    if not row["has_claims"]:
        raise ApiError("order_without_claims",
                       "The compatibility snapshot can only be retrieved for orders with claims")
    snapshot = row["snapshot"]
    product_id = snapshot.get("product_id")
    stored_status = snapshot.get("compatibility_status") or {}
    compatibility = stored_status.get("compatibility")
    status = {"compatibility": compatibility}
    current = None
    if compatibility == "CONFIRMED":
        current = _current_compatibility_id(row["item_key"], product_id, row["is_universal"])
        if current is not None:
            status["compatibility_id"] = current
    elif compatibility == "NO_USER_SELECTION":
        status["note"] = stored_status.get("note") or ""
        status["restrictions"] = stored_status.get("restrictions") or []
    body = {"item_id": row["item_id"], "seller_id": str(row["seller_id"]),
            "user_selection": snapshot.get("user_selection") or {"label_values": []},
            "compatibility_status": status,
            # Only a vehicle the buyer was told fits can have lost its compatibility since.
            "compatibility_deleted": compatibility == "CONFIRMED" and product_id is not None and current is None,
            "date_created": _parse_time(snapshot.get("date_created")) or row["date_created"]}
    if product_id is not None:
        body["product_id"] = product_id
    if snapshot.get("date_updated"):
        body["date_updated"] = _parse_time(snapshot["date_updated"])
    return body
