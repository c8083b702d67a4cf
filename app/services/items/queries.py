"""The items' SQL: their integer keys (Item.key), given by the database when an item is first stored, whatever
stores it, never changed nor reused, so a change record can name its item by eight bytes instead of
its text id for as long as the record is kept.

PostgreSQL draws them from a sequence (the column's default); SQLite has no sequences, so a trigger
gives a new row the next key after the greatest (its writes are serialised, so two inserts never
draw the same one). An upsert that finds the item stored updates it and leaves its key alone.
"""
from app.db import db, is_postgres
from app.models import Item
from app.services.bundle.sql import select_in

TABLE = Item._meta.table_name
COLUMN = Item.key.column_name
SEQUENCE = f"{TABLE}_{COLUMN}_seq"
TRIGGER = f"{TABLE}_{COLUMN}_given"


def ensure_item_keys():
    """The default or the trigger that gives keys, on a fresh schema and after the migration that
    added the column (which gave the items stored before it theirs first)."""
    if is_postgres():
        # Once in place, nothing is altered: an ALTER TABLE would lock the items against every reader
        # of the service each time the schema is checked (every `db upgrade`).
        default, nullable = db.execute_sql(
            "SELECT column_default, is_nullable FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = %s AND column_name = %s", (TABLE, COLUMN)).fetchone()
        if default is not None and nullable == "NO":
            return
        db.execute_sql(f'CREATE SEQUENCE IF NOT EXISTS "{SEQUENCE}" OWNED BY "{TABLE}"."{COLUMN}"')
        db.execute_sql(f"SELECT setval('\"{SEQUENCE}\"', max(\"{COLUMN}\")) FROM \"{TABLE}\""
                       f" HAVING max(\"{COLUMN}\") > 0")
        db.execute_sql(f'ALTER TABLE "{TABLE}" ALTER COLUMN "{COLUMN}" SET DEFAULT nextval(\'"{SEQUENCE}"\'),'
                       f' ALTER COLUMN "{COLUMN}" SET NOT NULL')
        return
    db.execute_sql(f'CREATE TRIGGER IF NOT EXISTS "{TRIGGER}" AFTER INSERT ON "{TABLE}" WHEN NEW."{COLUMN}" IS NULL'
                   f' BEGIN UPDATE "{TABLE}" SET "{COLUMN}" = (SELECT coalesce(max("{COLUMN}"), 0) + 1 FROM "{TABLE}")'
                   f' WHERE rowid = NEW.rowid; END')


def number_stored_items():
    """Keys for the items stored without one (the migration), in the order they were created."""
    db.execute_sql(f'UPDATE "{TABLE}" SET "{COLUMN}" = numbered.n FROM (SELECT "id", row_number() OVER'
                   f' (ORDER BY "date_created", "id") + coalesce((SELECT max("{COLUMN}") FROM "{TABLE}"), 0) AS n'
                   f' FROM "{TABLE}" WHERE "{COLUMN}" IS NULL) AS numbered WHERE "{TABLE}"."id" = numbered."id"')


def keys_of(item_ids):
    """{item id: key} of the stored items among `item_ids`."""
    return dict(select_in(Item, ["id", "key"], "id", list(item_ids)))
