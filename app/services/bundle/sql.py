"""Bulk INSERT … ON CONFLICT written as one prepared statement run over many rows.

Peewee builds each multi-row INSERT as a tree of nodes, which for a large load costs more than
the database's own work; here the statement is built once and the driver runs it
(executemany: sqlite3's, and psycopg 3's, which pipelines the rows). The upsert syntax is the same
on SQLite (3.24+) and PostgreSQL.
"""
import functools
import json
from contextlib import contextmanager

from peewee import AutoField, DateTimeField, ForeignKeyField, JSONField, __exception_wrapper__

from app.db import db, is_postgres
from app.models.timestamps import as_micros
from app.models.uuid_keys import UUIDKeyField, key_param
from app.models.word_codes import WordCodeField
from schemas.fields import uuid_bytes

IN_CHUNK = 900  # values per IN list: below SQLite's bound-variable limit
ANY_CHUNK = 10_000


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
    converters = [(n, c) for n, c in enumerate(_converter(f, postgres) for f in fields) if c is not None]
    if converters:
        rows = list(map(_row_converter(len(fields), converters), rows))
    if ignore or (conflict_target and not preserve):
        conflict = " ON CONFLICT DO NOTHING"
    elif conflict_target:
        target = ", ".join(_quote(f.column_name) for f in conflict_target)
        updates = ", ".join(f"{_quote(f.column_name)} = excluded.{_quote(f.column_name)}" for f in preserve)
        conflict = f" ON CONFLICT ({target}) DO UPDATE SET {updates}"
    else:
        conflict = ""
    cursor = db.cursor()
    with __exception_wrapper__:  # see _copy_rows
        # PostgreSQL: psycopg 3 runs executemany in pipeline mode, as one prepared statement, without
        # a round trip per row. A multi-row VALUES per page (what psycopg2's execute_values built)
        # costs psycopg 3 a parse of the whole statement on every page: past 4,096 characters or
        # 50 parameters it caches neither the parse nor the server's prepared statement.
        placeholders = ", ".join("%s" if postgres else "json(?)" if isinstance(f, JSONField) else "?"
                                 for f in fields)
        cursor.executemany(f"{sql}({placeholders}){conflict}", rows)


def _converter(field, postgres):
    if isinstance(field, JSONField):
        # SQLite: json(?) over the text; PostgreSQL: peewee's adapter (psycopg 3's Jsonb).
        return field.db_value if postgres else _dumps
    if isinstance(field, DateTimeField):
        # SQLite: the integer it stores (app/models/timestamps.py), made here once per distinct value.
        return field.db_value if postgres else as_micros
    if isinstance(field, UUIDKeyField) and not postgres:
        return uuid_bytes  # SQLite: the 16 bytes (PostgreSQL reads the text into its uuid)
    if isinstance(field, WordCodeField):
        return field.code_of
    return None


def _row_converter(width, converters):
    """One function that converts a row's converted columns and passes the others: a lambda
    written out for these positions (integers only), cheaper than transposing the rows to convert
    column by column and back."""
    namespace = {f"convert{n}": _memo(convert) if convert in (_datetime_text, as_micros) else convert
                 for n, convert in converters}
    return eval(_converter_code(width, tuple(n for n, _ in converters)), namespace)  # noqa: S307


@functools.cache
def _converter_code(width, positions):
    """The lambda's code, compiled once per shape: a write of a few rows paid the compilation more
    than its rows' conversion."""
    body = ", ".join(f"convert{n}(row[{n}])" if n in positions else f"row[{n}]" for n in range(width))
    return compile(f"lambda row: ({body},)", "<row converter>", "eval")


def _memo(convert):
    """An import's rows share a few timestamps (its own now()): each is written out once."""
    texts = {}
    return lambda value: texts[value] if value in texts else texts.setdefault(value, convert(value))


def _datetime_text(value):
    return value if value is None or isinstance(value, str) else value.isoformat(sep=" ")


def _dumps(value):
    return None if value is None else json.dumps(value)


# Binary COPY's type of a column by its field's type: those whose values the importer holds as the
# Python type the binary dumper takes (int, str). Others (JSON, timestamps, uuids, booleans) keep
# the text format, whose dumpers take what the rows hold.
_BINARY_TYPES = {"INT": "int4", "AUTO": "int4", "BIGINT": "int8", "BIGAUTO": "int8", "VARCHAR": "text",
                 "TEXT": "text", "CHAR": "text"}


def _binary_types(fields):
    """The binary COPY types of `fields`, or None when one of them keeps the text format."""
    types = [_BINARY_TYPES.get((f.rel_field if isinstance(f, ForeignKeyField) else f).field_type) for f in fields]
    return None if None in types else types


def _copy_rows(model, fields, rows):
    """PostgreSQL's COPY: several times faster than INSERT for plain bulk inserts.

    Row by row through psycopg 3's write_row, whose C dumpers write the rows, faster than the same
    text built in Python and written in one call. Rows of integers and texts only (products, their
    attributes, the finder's counts) go in COPY's binary format, which the server stores without
    parsing each value from its text."""
    # Each column as insert_rows converts it on PostgreSQL (JSON through peewee's adapter, psycopg 3's
    # Jsonb; a word as its number), but a timestamp: the text COPY reads, written once per distinct
    # value: an import's rows share its now(), and psycopg formatting each one (datetime.isoformat)
    # was a large part of the importer's work.
    converters = [(n, convert) for n, convert in enumerate(
        _datetime_text if isinstance(field, DateTimeField) else _converter(field, postgres=True) for field in fields)
        if convert is not None]
    if converters:
        rows = map(_row_converter(len(fields), converters), rows)
    binary = None if converters else _binary_types(fields)
    names = ", ".join(_quote(f.column_name) for f in fields)
    # The driver's own errors, as peewee's would be: a lock or statement timeout here is then the
    # same 503 as anywhere else, not a 500 (the driver's LockNotAvailable reached the app unwrapped).
    with __exception_wrapper__, db.cursor().copy(f"COPY {_quote(model._meta.table_name)} ({names}) FROM STDIN"
                                                 + (" (FORMAT BINARY)" if binary else "")) as copy:
        if binary:
            copy.set_types(binary)
        write_row = copy.write_row
        for row in rows:
            write_row(row)


def select_in(model, columns, key, values, order_by=()):
    """Rows (tuples of `columns`) of model whose `key` is among `values`, read in chunks of IN
    lists without peewee's per-row model conversion (raw driver values: bool as 0/1 on SQLite)."""
    names = ", ".join(_quote(model._meta.fields[c].column_name) for c in columns)
    table, key_column = _quote(model._meta.table_name), _quote(model._meta.fields[key].column_name)
    order = (" ORDER BY " + ", ".join(_quote(model._meta.fields[c].column_name) for c in order_by)) if order_by else ""
    values, uuids = _key_values(model._meta.fields[key], values)
    # PostgreSQL: one array parameter per chunk of ANY_CHUNK; planning long IN lists was a large
    # part of reading the stored rows of a big import.
    postgres = is_postgres()
    values = _in_key_order([v for v in values if v is not None])  # NULL matches nothing; an array needs a type
    size = ANY_CHUNK if postgres else IN_CHUNK
    for start in range(0, len(values), size):
        chunk = values[start:start + size]
        if postgres:
            where, params = any_of(key_column, chunk, "::uuid[]" if uuids else "")
        else:
            where, params = f"{key_column} IN ({', '.join([db.param] * len(chunk))})", chunk
        yield from db.execute_sql(f"SELECT {names} FROM {table} WHERE {where}{order}", params).fetchall()


@contextmanager
def index_lookups():
    """PostgreSQL: the block's statements find their rows by index, never by reading the whole
    table (`enable_seqscan` off in the transaction, put back after the block).

    For the lookups of an import's keys whose rows the planner cannot count: it takes each item of
    a chunk to hold the table's average number of compatibilities, so a large share of the table,
    and scans all of it where the index finds the new items at once, or reads the others' rows in
    a fraction of the scan's time."""
    if not is_postgres() or not db.in_transaction():
        yield
        return
    kept = db.execute_sql("SELECT current_setting('enable_seqscan'), "
                          "set_config('enable_seqscan', 'off', true)").fetchone()[0]
    yield
    # Not on an error: the transaction is then rolled back, and the setting with it.
    db.execute_sql("SELECT set_config('enable_seqscan', %s, true)", (kept,))


def _in_key_order(values):
    """The keys sorted, as the index holds them: each chunk then reads one narrow range of the
    index instead of pages all over it (the keys often come from a set), which each following
    chunk would read again. Keys of mixed types (an invalid bundle's) stay as they are."""
    try:
        return sorted(values)
    except TypeError:
        return values


def _key_values(field, values):
    """(the values as bound, whether they are UUID keys): a UUID key's text becomes what its
    column holds, and one that is no UUID is left out (it names no row)."""
    if not isinstance(field, UUIDKeyField):
        return list(values), False
    return [v for v in map(key_param, values) if v is not None], True


def any_of(column, values, array_type=""):
    """PostgreSQL: `column = ANY(...)` of `values`, and its parameters. Texts go as one string split
    by the server: psycopg 3 dumps a list into an array element by element in Python, which cost
    more than the lookups themselves. A list holding a comma, an empty text or a non-text value
    is sent as an array."""
    if all(type(v) is str for v in values) and "" not in values:
        joined = ",".join(values)
        if joined.count(",") == len(values) - 1:
            return f"{column} = ANY(string_to_array(%s, ','){array_type})", (joined,)
    return f"{column} = ANY(%s{array_type})", (list(values),)


def delete_in(model, key, values):
    table, key_column = _quote(model._meta.table_name), _quote(model._meta.fields[key].column_name)
    values, _ = _key_values(model._meta.fields[key], values)
    for start in range(0, len(values), IN_CHUNK):
        chunk = values[start:start + IN_CHUNK]
        db.execute_sql(f"DELETE FROM {table} WHERE {key_column} IN ({', '.join([db.param] * len(chunk))})", chunk)
