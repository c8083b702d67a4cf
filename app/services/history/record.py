"""Writing change records, set-based, in the transaction of the change they describe.

A write of N compatibilities costs one more statement (a multi-row INSERT, COPY on PostgreSQL,
or an INSERT … SELECT copying the rows about to be deleted), never one per compatibility.
Every recorder also gives the item a new compatibility state (state.touch), so its ETag changes.
"""
from contextlib import contextmanager

from peewee import Value

from app.db import is_postgres
from app.models import Compatibility, CompatibilityChange, Item
from app.models.base import utcnow
from app.models.word_codes import ACTIONS, ACTOR_KINDS
from app.services.bundle.sql import insert_rows
from app.services.history.scope import current_scope
from app.services.history.state import touch
from app.services.row_keys.lookups import product_id_of, product_keys_of
from app.services.row_keys.queries import keys_of

CREATE, UPDATE, DELETE = "CREATE", "UPDATE", "DELETE"
FIELDS = ["item_key", "compatibility_id", "action", "product_id", "universal", "source", "creation_source",
          "note_from", "note_to", "note_status_from", "note_status_to", "restrictions_from", "restrictions_to",
          "actor_kind", "actor_user_id", "actor_client_id", "request_id", "date_created", "job_id"]
# What a record keeps of a compatibility row, in this order: the product by its text id, which the
# record keeps (records name products as the API does).
STATE = (Compatibility.id, product_id_of(Compatibility.product), Compatibility.universal, Compatibility.source,
         Compatibility.creation_source, Compatibility.note, Compatibility.note_status, Compatibility.restrictions)
CHUNK = 500


def who(scope, now=None):
    """The trailing fields of every record the scope writes."""
    actor = scope.actor
    return actor.kind, actor.user_id, actor.client_id, scope.request_id, now or utcnow(), scope.job_id


def write_records(rows):
    insert_rows(CompatibilityChange, FIELDS, rows)


def item_key(scope, item_id):
    """The key of the item the scope's write locked (or, for a write that did not lock it, read)."""
    key = scope.keys.get(item_id)
    if key is None:
        key = scope.keys[item_id] = keys_of(Item, [item_id])[item_id]
    return key


def _counted(action, n):
    """The current scope, with `n` more `action` changes counted in it."""
    scope = current_scope()
    scope.counts[action] = scope.counts.get(action, 0) + n
    return scope


def record_created(item_id, rows):
    """After inserting compatibility rows (dicts of the stored columns: id, universal, source,
    creation_source, note, note_status, restrictions, with the product's text id as product_id)."""
    if not rows:
        return
    scope = _counted(CREATE, len(rows))
    if scope.record:
        tail = who(scope)
        key = item_key(scope, item_id)
        write_records([(key, r["id"], CREATE, r["product_id"], bool(r["universal"]), r["source"],
                        r["creation_source"], None, r["note"], None, r["note_status"], None, r["restrictions"], *tail)
                       for r in rows])
    touch([item_id], {item_id: len(rows) if scope.record else 0})


def record_deleted(item_id, compatibility_ids):
    """Before deleting these compatibilities of the item: their last state is copied into the
    history by the database itself (INSERT … SELECT), without reading the rows into Python."""
    ids = list(compatibility_ids)
    if not ids:
        return
    scope = _counted(DELETE, len(ids))
    if scope.record:
        kind, user_id, client_id, request_id, now, job_id = who(scope)
        # SQLite takes the same text peewee writes for a datetime (its driver adapter is deprecated).
        when = now if is_postgres() else now.isoformat(sep=" ")
        columns = [getattr(CompatibilityChange, name) for name in FIELDS]
        key = item_key(scope, item_id)
        for start in range(0, len(ids), CHUNK):
            select = (Compatibility.select(
                Value(key), Compatibility.id, Value(ACTIONS[DELETE]), product_id_of(Compatibility.product),
                Compatibility.universal, Compatibility.source, Compatibility.creation_source, Compatibility.note,
                Value(None), Compatibility.note_status, Value(None), Compatibility.restrictions, Value(None),
                Value(ACTOR_KINDS[kind]), Value(user_id), Value(client_id), Value(request_id), Value(when),
                Value(job_id))
                .where(Compatibility.item == key, Compatibility.id.in_(ids[start:start + CHUNK]))
                .order_by(Compatibility.id))
            CompatibilityChange.insert_from(select, columns).execute()
    # Every id is the item's (the deletes select them by item), so each gave one record.
    touch([item_id], {item_id: len(ids) if scope.record else 0})


def snapshot(item_id, product_ids=None, compatibility_ids=None):
    """{compatibility id: (id, product, universal, source, creation_source, note, note_status,
    restrictions)} of the item's compatibilities with these products (or these ids)."""
    by_product = product_ids is not None
    values = list(product_ids if by_product else compatibility_ids)
    key = item_key(current_scope(), item_id)  # the locked item's, as the records take it
    rows = {}
    for start in range(0, len(values), CHUNK):
        chunk = values[start:start + CHUNK]
        among = Compatibility.product.in_(product_keys_of(chunk)) if by_product else Compatibility.id.in_(chunk)
        query = Compatibility.select(*STATE).where(Compatibility.item == key, among)
        rows.update((row[0], row) for row in query.tuples())
    return rows


@contextmanager
def recording_updates(item_id, product_ids=None, compatibility_ids=None):
    """Around UPDATEs of notes, note statuses or restrictions: snapshot, then record_updated."""
    before = snapshot(item_id, product_ids, compatibility_ids)
    yield
    record_updated(item_id, before)


def record_updated(item_id, before):
    """After UPDATEs of the compatibilities `before` (a snapshot) describes: one UPDATE record per
    compatibility whose values differ now (however many statements changed it), none for those
    left as they were."""
    after = snapshot(item_id, compatibility_ids=list(before))
    changed = [(before[cid], row) for cid, row in after.items() if row[5:] != before[cid][5:]]
    if not changed:
        return
    scope = _counted(UPDATE, len(changed))
    if scope.record:
        tail = who(scope)
        key = item_key(scope, item_id)
        write_records([(key, old[0], UPDATE, new[1], bool(new[2]), new[3], new[4], old[5], new[5],
                        old[6], new[6], old[7], new[7], *tail) for old, new in changed])
    touch([item_id], {item_id: len(changed) if scope.record else 0})
