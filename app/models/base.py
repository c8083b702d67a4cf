"""The base model bound to the database proxy, and the field types shared by all areas."""
import datetime
import os
import time

from peewee import SQL, CharField, DateTimeField, JSONField, Model, NodeList

from app.db import db, is_postgres
from app.models import timestamps  # noqa: F401 (SQLite's adapter and converter of datetimes)


def utcnow():
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


_VARIANT = {digit: "89ab"[int(digit, 16) & 3] for digit in "0123456789abcdef"}


def time_ordered_uuids(count):
    """`count` UUIDs of version 7 (RFC 9562): the current Unix time in milliseconds, then 74
    random bits, from one urandom read (a uuid4() per row costs more than the row's insert).

    The time first makes new ids greater than those made before, so they are appended at the right
    edge of the primary key's B-tree instead of landing on nearly every leaf of a large index of
    random keys: each write (an import's chunk, an item's compatibilities) then dirties (and writes
    to the WAL, and checkpoints) a fraction of the index's pages. Sorted, they are also in key
    order within the write."""
    stamp = f"{time.time_ns() // 1_000_000:012x}"
    head = f"{stamp[:8]}-{stamp[8:]}-7"
    digits = os.urandom(10 * count).hex()
    return [f"{head}{h[:3]}-{_VARIANT[h[3]]}{h[4:7]}-{h[7:19]}"
            for h in (digits[start:start + 20] for start in range(0, 20 * count, 20))]


class BaseModel(Model):
    class Meta:
        database = db
        legacy_table_names = False


class CodeField(CharField):
    """A column of codes (ids, folded keys), compared byte by byte: COLLATE "C" on PostgreSQL, whose
    default collation compares through the locale, with no abbreviated sort keys (SQLite's default,
    BINARY, is byte order already), so indexes of such columns also build faster. Equality
    is the same either way; an ORDER BY of such a column is code point order, which is C.UTF-8's
    order too. Only for columns compared with parameters or with each other: a join to another
    table's column under another collation cannot use that column's index (product ids stay as
    they are: under "C" the fitment search by brand, model and year read every compatibility)."""

    def ddl(self, ctx):
        node = super().ddl(ctx)
        return NodeList((node, SQL('COLLATE "C"'))) if is_postgres() else node


__all__ = ["BaseModel", "CodeField", "JSONField", "DateTimeField", "utcnow"]
