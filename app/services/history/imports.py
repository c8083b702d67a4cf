"""The history in catalog bundles: the `compatibility_history` section (export writes it, import
restores it) and the IMPORT records of compatibilities an import creates, changes or replaces."""
import json

from peewee import fn

from app.db import is_postgres
from app.models import Compatibility, CompatibilityChange, Item, Order, Product
from app.services.bundle.sql import insert_rows, select_in
from app.services.history.change_record import COLUMNS, to_record, with_item_ids
from app.services.history.record import CREATE, DELETE, FIELDS, UPDATE, who, write_records
from app.services.history.scope import IMPORT, Actor, ChangeScope
from app.services.history.state import recount, touch
from app.services.row_keys.queries import ids_of, keys_of
from schemas.history import BundleChangeSchema

STORED = ["id", "item", "product", "universal", "source", "creation_source", "note", "note_status", "restrictions"]


def _json(value):
    # select_in answers raw driver values: JSON is text on SQLite (and codes are numbers, _stored).
    return json.loads(value) if isinstance(value, str) else value


def _stored(ids):
    source, creation = Compatibility.source.python_value, Compatibility.creation_source.python_value
    return {row[0]: (*row[:3], bool(row[3]), source(row[4]), creation(row[5]), *row[6:8], _json(row[8]))
            for row in select_in(Compatibility, STORED, "id", ids)}


def _named(keys, known, model):
    """{key: text id} for these keys: those `known` gives, the others read."""
    unknown = [key for key in keys if key is not None and key not in known]
    return {**known, **(ids_of(model, unknown) if unknown else {})}


def record_import(rows, replaced_ids, record=True, new_ids=frozenset(), item_ids=None, product_ids=None):
    """Before the import writes `rows` (tuples: id, item key, product key, universal, source,
    creation_source, note, note_status, restrictions, date_created) and deletes `replaced_ids`:
    CREATE for a new id, UPDATE for a stored one that changes, DELETE for a replaced one; an
    unchanged row records nothing, so re-importing a bundle leaves the history as it was.
    `new_ids` (ids the import just made up) are known not to be stored: they are not looked up.
    `item_ids` and `product_ids` ({key: text id}) name the rows' items and products; a stored row
    that names others (an id the bundle moves) has its own read."""
    stored = _stored([r[0] for r in rows if r[0] not in new_ids] + list(replaced_ids))
    olds = stored.values()
    items = _named({old[1] for old in olds}, item_ids or {}, Item)
    products = _named({old[2] for old in olds}, product_ids or {}, Product)
    tail = who(ChangeScope(Actor(IMPORT)))
    records = [(old[1], old[0], DELETE, products.get(old[2]), old[3], old[4], old[5], old[6], None, old[7], None,
                old[8], None, *tail) for old in (stored[cid] for cid in replaced_ids if cid in stored)]
    for cid, item_key, product_key, universal, source, creation, note, status, restrictions, _ in rows:
        old = stored.get(cid)
        if old is None:
            records.append((item_key, cid, CREATE, products.get(product_key), universal, source, creation, None,
                            note, None, status, None, restrictions, *tail))
        elif old[2:] != (product_key, universal, source, creation, note, status, restrictions):
            records.append((item_key, cid, UPDATE, products.get(product_key), universal, source, creation, old[6],
                            note, old[7], status, old[8], restrictions, *tail))
    counts = {}
    if record:
        write_records(records)
        for r in records:
            counts[items[r[0]]] = counts.get(items[r[0]], 0) + 1
    touch({items[r[0]] for r in records}, counts)


def touch_claimed_items(order_ids):
    """Claims change the reputation the list shows: the items of these orders get a new state."""
    item_ids = set()
    for chunk_start in range(0, len(order_ids), 500):
        chunk = order_ids[chunk_start:chunk_start + 500]
        item_ids.update(i for (i,) in Order.select(Order.item).where(Order.id.in_(chunk)).tuples())
    touch(item_ids)


def export_history():
    """Every record, oldest first, in the API's shape plus `item_id`."""
    schema = BundleChangeSchema()
    query = with_item_ids(CompatibilityChange.select(*COLUMNS)).order_by(CompatibilityChange.id).tuples()
    return [schema.dump(to_record(row)) for row in query.iterator()]


def _from_to(changes, key):
    value = (changes or {}).get(key) or {}
    return value.get("before"), value.get("after")


def load_history(records, ctx):
    """Upsert by id (a restore keeps ids, so the order of records survives), then move
    PostgreSQL's id sequence past them so new records still get higher ids."""
    rows, keys = [], keys_of(Item, {r["item_id"] for r in records})  # each is stored: the section refers to it
    for r in records:
        changes, actor = r.get("changes"), r["actor"]
        rows.append((r["id"], keys[r["item_id"]], r["compatibility_id"], r["action"], r.get("product_id"),
                     bool(r.get("universal")), r.get("source"), r.get("creation_source"),
                     *_from_to(changes, "note"), *_from_to(changes, "note_status"),
                     *_from_to(changes, "restrictions"), actor["kind"], actor.get("user_id"),
                     actor.get("client_id"), r.get("request_id"), r["date_created"], r.get("job_id")))
    fields = ["id", *FIELDS]
    insert_rows(CompatibilityChange, fields, rows, [CompatibilityChange.id],
                [getattr(CompatibilityChange, f) for f in FIELDS])
    recount({r[1] for r in rows})
    if is_postgres() and rows:
        sequence = fn.pg_get_serial_sequence(f'"{CompatibilityChange._meta.table_name}"', "id")
        CompatibilityChange.select(fn.setval(sequence, fn.MAX(CompatibilityChange.id))).scalar()
