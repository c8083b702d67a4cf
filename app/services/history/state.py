"""The compatibility state of an item, as the strong validator behind H2 and H3.

Each item row carries `compat_state`, a random token replaced in the transaction of every write
that changes the item's compatibilities (a record written, or an import or moderation touching
them). The ETag is a hash of (item id, token) made by flask-smorest, so the list (12) and every
write of the item answer the same tag for the same state, whatever the representation asked
(a gzipped answer marks its coding in it, which app/http/compression.uncoded reads back).
"""
from peewee import fn

from app.models import CompatibilityChange, Item
from app.models.items import new_state_token
from app.services.history import queries
from app.services.history.scope import current_scope
from app.services.notifications import outbox


def etag_data(item_id, state, public=False):
    """What the ETag hashes. A caller who is not the seller sees another representation
    (no note_status, notes only once moderated), so it gets another tag."""
    data = {"item_id": item_id, "state": state}
    if public:
        data["view"] = "public"
    return data


def list_etag(item, caller_id):
    """The ETag data of the list (12) of `item` (its row) as `caller_id` sees it."""
    return etag_data(item.id, item.compat_state, public=item.seller_id != caller_id)


def item_locked(item):
    """Called by every compatibility write right after it locks the item: runs the scope's
    precondition (If-Match) against the state no other writer can change until commit, and
    remembers that state for the answer of a write that turns out to change nothing."""
    scope = current_scope()
    if scope.precondition is not None:
        scope.precondition(etag_data(item.id, item.compat_state))
    scope.states[item.id] = item.compat_state
    scope.keys[item.id] = item.key


def touch(item_ids, recorded=None):
    """A new state for items whose compatibilities changed, in the caller's transaction, and
    `recorded[item_id]` more change records on their count."""
    item_ids = list(dict.fromkeys(item_ids))
    if not item_ids:
        return
    outbox.items_changed(item_ids)  # in this transaction: the items_compatibilities notifications
    token = new_state_token()  # one for all: the tag hashes the item id too
    by_count = {}  # a few UPDATEs: items that got the same number of records share one
    for item_id in item_ids:
        by_count.setdefault((recorded or {}).get(item_id, 0), []).append(item_id)
    for count, ids in by_count.items():
        queries.touch_items(ids, token, count)
    states = current_scope().states
    for item_id in item_ids:
        states[item_id] = token


def recount(item_keys):
    """Counts the records of the items with these keys again (after a restore or a purge)."""
    item_keys = list(item_keys)
    for start in range(0, len(item_keys), 500):
        Item.update(history_count=CompatibilityChange.select(fn.COUNT(CompatibilityChange.id))
                    .where(CompatibilityChange.item_key == Item.key)).where(
            Item.key.in_(item_keys[start:start + 500])).execute()


def write_etag(item_id):
    """The ETag data of the item's state after the current scope's write, or None when the
    write never locked the item."""
    state = current_scope().states.get(item_id)
    return None if state is None else etag_data(item_id, state)
