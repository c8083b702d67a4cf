"""Bulk INSERT … ON CONFLICT written as one prepared statement run over many rows.

Peewee builds each multi-row INSERT as a tree of nodes, which costs more than the database's
own work for half a million rows; here the statement is built once and the driver runs it
(sqlite3's executemany, psycopg2's execute_values). The upsert syntax is the same on SQLite
(3.24+) and PostgreSQL.
"""
import io
import json

from peewee import AutoField, DateTimeField, JSONField

from app.db import db, is_postgres

PAGE = 1000
IN_CHUNK = 900  # values per IN list: below SQLite's bound-variable limit


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def insert_rows(model, fields, rows, conflict_target=None, preserve=None, ignore=False):
    """INSERT rows (tuples in `fields` order; fields are model fields or their names).

    With `conflict_target`, a row whose key exists updates the `preserve` columns instead (or
    is skipped when there are none, or when `ignore`).
    """
    rows = list(rows)
    if not rows:
        return
    fields = [model._meta.fields[f] if isinstance(f, str) else f for f in fields]
    # Defaults are Python-side in peewee (the tables have no DEFAULT clauses): add them here.
    given = {f.name for f in fields}  # by name: a peewee Field's == builds an expression
    defaults = [f for f in model._meta.sorted_fields
                if f.name not in given and f.default is not None and not isinstance(f, AutoField)]
    if defaults:
        extra = tuple(f.default() if callable(f.default) else f.default for f in defaults)
        fields = fields + defaults
        rows = [tuple(row) + extra for row in rows]
    postgres = is_postgres()
    if postgres and not conflict_target and not ignore:
        _copy_rows(model, fields, rows)
        return
    columns = ", ".join(_quote(f.column_name) for f in fields)
    sql = f"INSERT INTO {_quote(model._meta.table_name)} ({columns}) VALUES "
    converters = [_converter(f, postgres) for f in fields]
    if any(converters):
        rows = [tuple(v if c is None else c(v) for c, v in zip(converters, row, strict=True)) for row in rows]
    sql += "%s" if postgres else "(" + ", ".join("json(?)" if isinstance(f, JSONField) else "?"
                                                for f in fields) + ")"
    if ignore or (conflict_target and not preserve):
        sql += " ON CONFLICT DO NOTHING"
    elif conflict_target:
        target = ", ".join(_quote(f.column_name) for f in conflict_target)
        updates = ", ".join(f"{_quote(f.column_name)} = excluded.{_quote(f.column_name)}" for f in preserve)
        sql += f" ON CONFLICT ({target}) DO UPDATE SET {updates}"
    cursor = db.cursor()
    if postgres:
        from psycopg2.extras import execute_values

        execute_values(cursor, sql, rows, page_size=PAGE)
    else:
        cursor.executemany(sql, rows)


def _converter(field, postgres):
    if isinstance(field, JSONField):
        # SQLite: json(?) over the text; PostgreSQL: peewee's adapter (psycopg2's Json).
        return field.db_value if postgres else _dumps
    if isinstance(field, DateTimeField):
        # SQLite: the text peewee reads back (sqlite3's own datetime adapter is deprecated).
        return field.db_value if postgres else _datetime_text
    return None


def _datetime_text(value):
    return value if value is None or isinstance(value, str) else value.isoformat(sep=" ")


def _dumps(value):
    return None if value is None else json.dumps(value)


def _copy_rows(model, fields, rows):
    """PostgreSQL's COPY: several times faster than INSERT for plain bulk inserts."""
    text = [_copy_text(f) for f in fields]
    buffer = io.StringIO()
    for row in rows:
        buffer.write("\t".join(convert(value) for convert, value in zip(text, row, strict=True)))
        buffer.write("\n")
    buffer.seek(0)
    columns = ", ".join(_quote(f.column_name) for f in fields)
    db.cursor().copy_expert(f"COPY {_quote(model._meta.table_name)} ({columns}) FROM STDIN", buffer)


_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(field):
    """How a value of this field is written in COPY's text format (\\N is NULL)."""
    if isinstance(field, JSONField):
        return lambda v: "\\N" if v is None else json.dumps(v).translate(_ESCAPES)
    if isinstance(field, DateTimeField):
        return lambda v: "\\N" if v is None else v.isoformat(sep=" ")
    return _plain_text


def _plain_text(value):
    if value is None:
        return "\\N"
    if value is True or value is False:
        return "t" if value else "f"
    return str(value).translate(_ESCAPES)


def select_in(model, columns, key, values, order_by=()):
    """Rows (tuples of `columns`) of model whose `key` is among `values`, read in chunks of IN
    lists without peewee's per-row model conversion (raw driver values: bool as 0/1 on SQLite)."""
    names = ", ".join(_quote(model._meta.fields[c].column_name) for c in columns)
    table, key_column = _quote(model._meta.table_name), _quote(model._meta.fields[key].column_name)
    order = (" ORDER BY " + ", ".join(_quote(model._meta.fields[c].column_name) for c in order_by)) if order_by else ""
    values = list(values)
    for start in range(0, len(values), IN_CHUNK):
        chunk = values[start:start + IN_CHUNK]
        marks = ", ".join([db.param] * len(chunk))
        cursor = db.execute_sql(f"SELECT {names} FROM {table} WHERE {key_column} IN ({marks}){order}", chunk)
        yield from cursor.fetchall()


def delete_in(model, key, values):
    table, key_column = _quote(model._meta.table_name), _quote(model._meta.fields[key].column_name)
    values = list(values)
    for start in range(0, len(values), IN_CHUNK):
        chunk = values[start:start + IN_CHUNK]
        db.execute_sql(f"DELETE FROM {table} WHERE {key_column} IN ({', '.join([db.param] * len(chunk))})", chunk)
