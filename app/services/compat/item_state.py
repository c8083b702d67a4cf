"""The compatibility state kept on each item row (counts, universal, tags), recomputed in SQL.

Every write that touches an item's compatibilities, suggestions or exception calls
`refresh_items` inside its transaction, so tags and searches never go stale.
"""
from peewee import SQL, fn

from app.db import is_postgres
from app.models import CategoryRule, Compatibility, CompatibilityException, CompatibilityRule, Item, Suggestion

CHUNK = 500


def _required_for_item():
    """True when the item's category requires compatibilities for the item's domain."""
    return fn.EXISTS(
        CategoryRule.select(CategoryRule.id)
        .join(CompatibilityRule)
        .where(CategoryRule.category == Item.category, CategoryRule.required == True,  # noqa: E712
               CompatibilityRule.domain == Item.domain))


def refresh_items(item_ids=None, lock=False):
    """Recompute the derived columns of these items (all items when None), a few set-based
    UPDATEs per chunk rather than one query per item.

    `lock`: for a writer that has not locked the items itself (the import; API writes lock their
    item first). The items are then locked before they are recomputed, in id order, so two such
    writers cannot deadlock, and no concurrent write to them can be missed (see `_lock`)."""
    if item_ids is None:
        if lock:
            _lock(None)
        _refresh(None)
        return
    ids = sorted(set(item_ids)) if lock else list(dict.fromkeys(item_ids))
    for start in range(0, len(ids), CHUNK):
        if lock:
            _lock(ids[start:start + CHUNK])
        _refresh(ids[start:start + CHUNK])


def _lock(ids):
    """PostgreSQL: an UPDATE that waits for another transaction's row lock recomputes the row from
    the snapshot it started with, which lacks what that transaction then committed: an import
    overlapping a seller's write stored a count of 0 over the seller's 7. Waiting here instead,
    the UPDATE that follows starts after the seller's commit and sees it. SQLite's IMMEDIATE
    transactions already run one writer at a time."""
    if not is_postgres():
        return
    where = Item.id.in_(ids) if ids is not None else True
    # Counted, not fetched: one row back however many items are locked.
    locking = Item.select(Item.id).where(where).order_by(Item.id).for_update()
    Item.select(fn.COUNT(SQL("*"))).from_(locking.alias("locked")).scalar()


def _refresh(ids):
    where = Item.id.in_(ids) if ids is not None else True
    # Both read the (item, product) index alone for rows PostgreSQL knows to be visible: COUNT(*)
    # needs no column of the row, and the universal setting is the item's one row without a
    # product (every writer stores it so), found by one probe instead of testing each of the
    # item's rows. An import's fresh rows are read from the table once instead of twice: the
    # recount of 500 items after a chunk of 100,000 compatibilities took 654 ms before.
    counts = Item.update(
        compatibilities_count=Compatibility.select(fn.COUNT(SQL("*"))).where(Compatibility.item == Item.id),
        is_universal=fn.EXISTS(Compatibility.select(SQL("1")).where(
            Compatibility.item == Item.id, Compatibility.product.is_null(),
            Compatibility.universal == True)),  # noqa: E712
        has_exception=fn.EXISTS(CompatibilityException.select(CompatibilityException.item)
                                .where(CompatibilityException.item == Item.id)),
        pending_suggestions=Suggestion.select(fn.COUNT(Suggestion.id)).where(Suggestion.item == Item.id),
    ).where(where)
    counts.execute()
    Item.update(
        tag_incomplete=(Item.status == "active") & _required_for_item()
        & (Item.compatibilities_count == 0) & (Item.has_exception == False),  # noqa: E712
        tag_pending=Item.pending_suggestions > 0,
    ).where(where).execute()


def item_tags(item):
    """The item's tags as the API shows them."""
    tags = []
    if item.tag_incomplete:
        tags.append("incomplete_compatibilities")
    if item.tag_pending:
        tags.append("pending_compatibilities")
    return tags
