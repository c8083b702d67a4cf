"""Compatibility ids in 16 bytes (app/models/uuid_keys.py): `uuid` on PostgreSQL, a BLOB declared UUID on
SQLite, in the compatibility table and in the change records that name them.

An id that is a UUID keeps its value (in lower case, as the API now shows every id). Bundles could
give any text of up to 36 characters before, so an id that is no UUID becomes the UUID of its MD5
(`key_of`): the same in both tables, so its change records still name it. PostgreSQL changes the
columns' type in place; SQLite cannot, so each table is built again with the column declared UUID and its
rows copied across, as 0005 did."""
import hashlib

from app.migrations.sqlite_tables import rebuild
from app.models.uuid_keys import key_param, key_text
from schemas.fields import canonical_uuid

UUID_TEXT = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
COLUMNS = {"compatibility": "id", "compatibility_change": "compatibility_id"}


def key_of(text):
    """The 16 bytes an old id becomes (SQLite's value; PostgreSQL's cast gives the same UUID)."""
    if text is None or isinstance(text, bytes):
        return text
    return key_param(canonical_uuid(text) or key_text(hashlib.md5(text.encode(), usedforsecurity=False).digest()))


def up(migrator, db):
    from app.db import is_postgres
    from app.models import Compatibility, CompatibilityChange

    if is_postgres():
        for table, column in COLUMNS.items():
            if db.execute_sql("SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema()"
                              " AND table_name = %s AND column_name = %s", (table, column)).fetchone()[0] == "uuid":
                continue
            db.execute_sql(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE uuid USING CASE WHEN "{column}" ~ '
                           f"'{UUID_TEXT}' THEN \"{column}\"::uuid ELSE md5(\"{column}\")::uuid END")
        return
    db.connection().create_function("key_of", 1, key_of, deterministic=True)
    for model in (Compatibility, CompatibilityChange):
        table, column = model._meta.table_name, COLUMNS[model._meta.table_name]
        declared = {c.name: c.data_type for c in db.get_columns(table)}
        if declared[column].upper() == "UUID":
            continue
        rebuild(db, model, "before_uuid", {column: "UUID"}, {column: f'key_of("{column}")'})
