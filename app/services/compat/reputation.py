"""Incompatibility claims counted against compatibilities, in a few grouped queries.

A claim counts against the compatibility of (the order's item, the snapshot's product) when both
exist: an order bought without choosing a vehicle, or whose vehicle the item no longer lists,
weighs on no compatibility.
"""
from peewee import fn

from app.models import Claim, Compatibility, Item, Order, Product
from app.services.compat.queries import claims_by_product


def _claims_per_compatibility():
    """Claims joined to the compatibility they count against (item and product match): the orders
    name both by their text ids, the compatibility by their keys, which the item and product rows
    pair."""
    return (Compatibility.select()
            .join(Item, on=(Item.key == Compatibility.item))
            .join(Product, on=(Product.key == Compatibility.product), src=Compatibility)
            .join(Order, on=((Order.item == Item.id) & (Order.snapshot_product_id == Product.id)))
            .join(Claim, on=(Claim.order == Order.id)))


def claims_by_item(item_ids, where=None):
    """{item_id: total claims against the item's existing compatibilities}; 0 for items without.

    `where`, an optional expression on Compatibility, narrows the compatibilities counted
    (for example to one vehicle domain).
    """
    item_ids = list(dict.fromkeys(item_ids))
    totals = dict.fromkeys(item_ids, 0)
    if not item_ids:
        return totals
    query = (_claims_per_compatibility()
             .select(Item.id, fn.COUNT(Claim.id))
             .where(Item.id.in_(item_ids))
             .group_by(Item.id))
    if where is not None:
        query = query.where(where)
    for item_id, claims in query.tuples():
        totals[item_id] = claims
    return totals


def compatibilities_with_claims(item_id, where=None):
    """Number of the item's compatibilities that have at least one claim (`where` as above)."""
    query = (_claims_per_compatibility()
             .select(fn.COUNT(fn.DISTINCT(Compatibility.id)))
             .where(Item.id == item_id))
    if where is not None:
        query = query.where(where)
    return query.scalar() or 0


__all__ = ["claims_by_product", "claims_by_item", "compatibilities_with_claims"]
