"""Writing a bundle's compatibilities: upserted by id, an (item, product) pair already stored keeps
its id, new rows get time-ordered ids, and each change is recorded in the items' history."""
from app.models import Compatibility, Item, Product
from app.models.base import time_ordered_uuids, utcnow
from app.services import history
from app.services.bundle.bulk import references_locked
from app.services.bundle.load import upsert
from app.services.bundle.sql import delete_in, index_lookups, insert_rows, select_in
from app.services.row_keys.queries import keys_of
from schemas.vocabulary import PENDING

COMPATIBILITY_FIELDS = ["id", "item", "product", "universal", "source", "creation_source", "note", "note_status",
                        "restrictions", "date_created"]


def _stored_compatibility_ids(item_keys):
    """{(item key, product key or None): id} of the compatibilities these items already have."""
    with index_lookups():
        rows = select_in(Compatibility, ["id", "item", "product"], "item", item_keys)
        return {(item_key, product_key): row_id for row_id, item_key, product_key in rows}


def _keys(table, model, ids):
    """{id: key} of these stored rows: the lookup's stored rows came with their key (the references'
    check read them), so only the bundle's own rows, stored by an earlier section, are read here."""
    keys, unread = {}, []
    for row_id in ids:
        row = table.get(row_id)
        key = row.get("key") if row else None
        if key is None:
            unread.append(row_id)
        else:
            keys[row_id] = key
    if unread:
        keys.update(keys_of(model, unread))
    return keys


def load_compatibilities(records, ctx):
    """Upsert by id; without an id, the item's stored compatibility with that product keeps its
    id (or a new time-ordered UUID is made). A stored row of the same (item, product) under another id is
    replaced by the bundle's."""
    items = _keys(ctx.tables["item"], Item, {r["item_id"] for r in records})
    products = _keys(ctx.tables["product"], Product, {r["product_id"] for r in records if not r.get("universal")})
    stored = _stored_compatibility_ids(list(items.values()))
    explicit = {r["id"] for r in records if r.get("id")}
    rows, fresh, replaced = [], set(), []
    # Sorted: given in record order, the new rows reach both the id index and the (item, product)
    # one in key order instead of at random places in a large tree.
    new_ids = iter(sorted(time_ordered_uuids(sum(1 for r in records if not r.get("id")))))
    for r in records:
        item_key = items[r["item_id"]]
        product_key = None if r.get("universal") else products[r["product_id"]]
        old = stored.get((item_key, product_key))
        row_id = r.get("id") or (old if old not in explicit else None)  # an explicit id moves elsewhere
        if row_id is None:
            row_id = next(new_ids)
            fresh.add(row_id)
        if old is not None and old != row_id:
            replaced.append(old)
        note_status = r.get("note_status") or (PENDING if r.get("note") else None)
        rows.append((row_id, item_key, product_key, product_key is None, r["source"], r["creation_source"],
                     r.get("note"), note_status, r.get("restrictions") or None, r.get("date_created")))
    # A bundle carrying compatibility_history is a backup being restored: that section already
    # tells these rows' story, so the import does not add IMPORT records of its own.
    history.record_import(rows, replaced, record=not ctx.sections.get("compatibility_history"), new_ids=fresh,
                          item_ids={key: item_id for item_id, key in items.items()},
                          product_ids={key: product_id for product_id, key in products.items()})
    delete_in(Compatibility, "id", replaced)
    # A new id cannot be stored yet and the replaced rows are gone, so those rows are plain
    # INSERTs (COPY on PostgreSQL) rather than upserts.
    now = utcnow()
    new_rows = [row if row[-1] is not None else (*row[:-1], now) for row in rows if row[0] in fresh]
    with references_locked(Compatibility, COMPATIBILITY_FIELDS, new_rows):
        insert_rows(Compatibility, COMPATIBILITY_FIELDS, new_rows)
    upsert(Compatibility, COMPATIBILITY_FIELDS, [row for row in rows if row[0] not in fresh], ["id"],
           keep_when_missing=("date_created",))
