"""The base model bound to the database proxy, and the field types shared by all areas."""
import datetime

from peewee import SQL, CharField, DateTimeField, JSONField, Model, NodeList

from app.db import db, is_postgres


def utcnow():
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


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
