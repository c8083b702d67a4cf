"""The compatibility state kept on each item row (counts, universal, tags), recomputed in SQL.

Every write that touches an item's compatibilities, suggestions or exception calls
`refresh_items` inside its transaction, so tags and searches never go stale.
"""
from peewee import fn

from app.models import CategoryRule, Compatibility, CompatibilityException, CompatibilityRule, Item, Suggestion

CHUNK = 500


def _required_for_item():
    """True when the item's category requires compatibilities for the item's domain."""
    return fn.EXISTS(
        CategoryRule.select(CategoryRule.id)
        .join(CompatibilityRule)
        .where(CategoryRule.category == Item.category, CategoryRule.required == True,  # noqa: E712
               CompatibilityRule.domain == Item.domain))


def refresh_items(item_ids=None):
    """Recompute the derived columns of these items (all items when None), a few set-based
    UPDATEs per chunk rather than one query per item."""
    if item_ids is None:
        _refresh(None)
        return
    ids = list(dict.fromkeys(item_ids))
    for start in range(0, len(ids), CHUNK):
        _refresh(ids[start:start + CHUNK])


def _refresh(ids):
    where = Item.id.in_(ids) if ids is not None else True
    counts = Item.update(
        compatibilities_count=Compatibility.select(fn.COUNT(Compatibility.id))
        .where(Compatibility.item == Item.id),
        is_universal=fn.EXISTS(Compatibility.select(Compatibility.id)
                               .where(Compatibility.item == Item.id, Compatibility.universal == True)),  # noqa: E712
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
