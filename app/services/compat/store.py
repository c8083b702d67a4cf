"""Writing compatibility rows: new products (skipping those the item has), the universal
setting, and the per-item limit that every write checks before it commits."""
from operator import itemgetter

from app.errors import ApiError
from app.models import Compatibility
from app.models.base import time_ordered_uuids, utcnow
from app.services import history
from app.services.bundle.sql import insert_rows
from app.services.compat import queries
from schemas.vocabulary import DEFAULT, PENDING, SELLER

IN_CHUNK = 500
# The stored columns of a row dict, "item" and "product" the keys; the dicts also carry "product_id"
# (the product's text id, which the change record and the answers name) and "domain_id" (its domain).
COLUMNS = ("id", "item", "product", "universal", "source", "creation_source", "note", "note_status",
           "restrictions", "date_created")
_in_column_order = itemgetter(*COLUMNS)


def chunks(seq, size):
    seq = list(seq)
    for start in range(0, len(seq), size):
        yield seq[start:start + size]


def existing_products(item, product_keys):
    """The keys among `product_keys` of the products `item` (its row) has a compatibility with."""
    product_keys = list(product_keys)
    return queries.item_product_keys_among(item.key, product_keys) if product_keys else set()


def insert_entries(item, entries, source=SELLER):
    """Adds the entries whose product `item` (its row, locked) does not have yet; consumes the item's
    pending suggestions of those products. Returns the rows written."""
    item_id = item.id
    entries = list(entries)
    # Under the lock the item's count is current (or, after this write's deletes, too high): an item
    # without compatibilities, a new listing's usual case, has none to skip.
    existing = existing_products(item, [e.product_key for e in entries]) if item.compatibilities_count else set()
    entries = [e for e in entries if e.product_key not in existing]
    now = utcnow()
    rows = [{"id": row_id, "item": item.key, "product": e.product_key,
             "product_id": e.product_id, "domain_id": e.domain_id, "universal": False, "source": source,
             "creation_source": e.creation_source, "note": e.note, "note_status": PENDING if e.note else None,
             "restrictions": e.restrictions or None, "date_created": now}
            for e, row_id in zip(entries, sorted(time_ordered_uuids(len(entries))), strict=True)]
    # One prepared statement for all rows: peewee's multi-row INSERT built a node per value,
    # which took longer than the database's own work for a 200-product family.
    insert_rows(Compatibility, COLUMNS, list(map(_in_column_order, rows)))
    history.record_created(item_id, rows)
    # The count is the item's derived state, current under its lock: an item without suggestions,
    # the usual case, is spared the statement.
    if rows and item.pending_suggestions:
        queries.delete_suggestions(item_id, [r["product_id"] for r in rows])
    return rows


def set_universal(ctx, creation_source=DEFAULT):
    """Rule 3: 400 while the item has specific compatibilities; 0 when already universal."""
    ctx.universal_category_rule()
    universal, specific = ctx.state()
    if specific:
        raise ApiError("item_has_compatibilities",
                       f"Item {ctx.item.id} has {specific} compatibilities; they must be removed "
                       f"(DELETE /items/{ctx.item.id}/compatibilities) before setting it as universal")
    if universal:
        return 0
    row = {"id": time_ordered_uuids(1)[0], "item": ctx.item.key, "product": None, "product_id": None,
           "universal": True, "source": SELLER, "creation_source": creation_source, "note": None,
           "note_status": None, "restrictions": None, "date_created": utcnow()}
    Compatibility.insert({getattr(Compatibility, name): row[name] for name in COLUMNS}).execute()
    history.record_created(ctx.item.id, [row])
    return 1


def reject_if_universal(ctx):
    universal, _ = ctx.state()
    if universal:
        raise ApiError("item_is_universal",
                       f"Item {ctx.item.id} has the universal setting; it must be removed (delete it, or send "
                       "delete.universal: true in PUT) before creating specific compatibilities")


def check_item_limit(item, limits):
    """Of `item` (its row, locked). Run last in the write's transaction: raising rolls the whole
    write back."""
    count = queries.compatibility_count(item.key)
    if count > limits.max_per_item:
        raise ApiError("too_many_compatibilities",
                       f"Item {item.id} would have {count} compatibilities, more than the {limits.max_per_item} "
                       "allowed per item")
