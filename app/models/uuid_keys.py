"""UUID keys stored in 16 bytes, read and written as the API's 36-character text.

A compatibility id is a UUID that the API shows as text. Kept as text, it took 37 bytes in each
row, in the primary key's index and in every change record naming it; as PostgreSQL's `uuid` and
as a 16-byte BLOB on SQLite it takes 16. Python sees the text on both databases, whatever reads
it: peewee's queries through the field, and the statements run by hand (prepared ones, COPY,
executemany) through the drivers' own converters registered here, psycopg's loader of `uuid`
as text and, on SQLite, a converter of the columns declared `UUID` (connections opened with
`detect_types=PARSE_DECLTYPES`, app/db.py). What a statement binds by hand goes through `key_param`.

A text that is no UUID names no row: `key_param` makes it NULL, which equals nothing, where
PostgreSQL would fail the statement on the cast (a 500 for a mistyped id in a URL)."""
import sqlite3

import psycopg
from peewee import SQL, Field
from psycopg.types.string import TextLoader

from app.db import is_postgres
from schemas.fields import uuid_bytes


def key_text(value):
    """The 36-character text of a stored key (16 bytes on SQLite, text on PostgreSQL), or None."""
    if value is None or isinstance(value, str):
        return value
    if len(value) != 16:  # a key written as text, before the column held bytes
        return bytes(value).decode()
    h = value.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def key_param(value):
    """What a statement binds for the key `value`: the text on PostgreSQL, 16 bytes on SQLite;
    None (matching nothing) when it is not a UUID."""
    key = uuid_bytes(value)
    if key is None:
        return None
    return value.lower() if is_postgres() else key


class UUIDKeyField(Field):
    """A UUID column: `uuid` on PostgreSQL, a 16-byte BLOB on SQLite (declared UUID, which SQLite
    stores as given and sqlite3 converts by that name)."""
    field_type = "UUID"

    def ddl_datatype(self, ctx):
        return SQL("UUID")

    def db_value(self, value):
        return key_param(value)

    def python_value(self, value):
        return key_text(value)


# Process-wide: every connection, pooled, replica or opened by a command, reads keys as text.
psycopg.adapters.register_loader("uuid", TextLoader)
sqlite3.register_converter("UUID", key_text)
