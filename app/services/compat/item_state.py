"""The compatibility state kept on each item row (counts, universal, tags), recomputed in SQL.

Every write that touches an item's compatibilities, suggestions or exception calls
`refresh_items` inside its transaction, so tags and searches never go stale.
"""
import operator
from functools import reduce

from peewee import SQL, fn

from app.db import is_postgres
from app.models import CategoryRule, Compatibility, CompatibilityException, CompatibilityRule, Item, Suggestion
from app.services.compat import queries

CHUNK = 500


def _required_for(item):
    """True when the item's category requires compatibilities for the item's domain."""
    return fn.EXISTS(
        CategoryRule.select(CategoryRule.id)
        .join(CompatibilityRule)
        .where(CategoryRule.category == item.category, CategoryRule.required == True,  # noqa: E712
               CompatibilityRule.domain == item.domain))


def refresh_items(item_ids=None, lock=False):
    """Recompute the derived columns of these items (all items when None), a few set-based
    UPDATEs per chunk rather than one query per item.

    `lock`: for a writer that has not locked the items itself (the import; API writes lock their
    item first). The items are then locked before they are recomputed, in id order, so two such
    writers cannot deadlock, and no concurrent write to them can be missed (see `_lock`).

    Answers the number of items whose state changed (the others are not written)."""
    if item_ids is None:
        if lock:
            _lock(None)
        return _refresh(None)
    ids = sorted(set(item_ids)) if lock else list(dict.fromkeys(item_ids))
    changed = 0
    for start in range(0, len(ids), CHUNK):
        if lock:
            _lock(ids[start:start + CHUNK])
        changed += _refresh(ids[start:start + CHUNK])
    return changed


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
    """The UPDATE of `_state_update` on these items (all when None); one item's is prepared."""
    if ids is not None and len(ids) == 1:
        return queries.refresh_item(ids[0], lambda item_id: _state_update(lambda column: column == item_id))
    return _state_update(lambda column: column.in_(ids) if ids is not None else True).execute()


def _state_update(among):
    """One UPDATE from the items' state recounted (of the items whose id `among(id column)` holds),
    which writes only the items whose state changed.

    PostgreSQL writes a new version of every row an UPDATE sets, even to the values it holds, with
    an entry in each of the item's eight indexes (its text-search GIN among them: the columns set
    here are indexed, so no update is HOT). The counts and then the tags were two UPDATEs, so
    every item was written twice, whether its state had changed or not."""
    item = Item.alias("counted")
    # Both read the (item, product) index alone for rows PostgreSQL knows to be visible: COUNT(*)
    # needs no column of the row, and the universal setting is the item's one row without a
    # product (every writer stores it so), found by one probe instead of testing each of the
    # item's rows. An import's fresh rows, not yet known to be visible, are read from the table once
    # instead of twice.
    state = item.select(
        item.id,
        Compatibility.select(fn.COUNT(SQL("*"))).where(Compatibility.item == item.key).alias("compatibilities"),
        fn.EXISTS(Compatibility.select(SQL("1")).where(
            Compatibility.item == item.key, Compatibility.product.is_null(),
            Compatibility.universal == True)).alias("universal"),  # noqa: E712
        fn.EXISTS(CompatibilityException.select(CompatibilityException.item)
                  .where(CompatibilityException.item == item.id)).alias("exception"),
        Suggestion.select(fn.COUNT(Suggestion.id)).where(Suggestion.item == item.id).alias("suggestions"),
        ((item.status == "active") & _required_for(item)).alias("requires"),
    ).where(among(item.id)).offset(0).alias("state")
    derived = {
        Item.compatibilities_count: state.c.compatibilities,
        Item.is_universal: state.c.universal,
        Item.has_exception: state.c.exception,
        Item.pending_suggestions: state.c.suggestions,
        Item.tag_incomplete: state.c.requires & (state.c.compatibilities == 0) & ~state.c.exception,
        Item.tag_pending: state.c.suggestions > 0,
    }
    changed = reduce(operator.or_, (column != value for column, value in derived.items()))
    # OFFSET 0 keeps PostgreSQL from pulling the subquery up into the UPDATE, which recounted each
    # item twice, once in the test and once more in the SET.
    where = (Item.id == state.c.id) & changed & among(Item.id)
    return Item.update(derived).from_(state).where(where)


def item_tags(item):
    """The item's tags as the API shows them."""
    tags = []
    if item.tag_incomplete:
        tags.append("incomplete_compatibilities")
    if item.tag_pending:
        tags.append("pending_compatibilities")
    return tags
