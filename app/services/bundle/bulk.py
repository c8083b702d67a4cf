"""Large loads into an indexed table: its secondary indexes (and on PostgreSQL its foreign keys)
are dropped before the rows are written and built again after, all inside the import's transaction.

PostgreSQL otherwise maintains each B-tree row by row and checks each foreign key by a lookup per
row; built once from sorted data, with a larger `maintenance_work_mem` for this transaction only,
the indexes cost a fraction of that, and the foreign key is checked again by one anti-join when it
is added back. SQLite keeps its foreign keys (it cannot drop them), but its value indexes, which
the attribute rows lead with an integer scope, are also cheaper built once after the load. Both
databases' DDL is transactional: an import that fails rolls the drops back with its rows, so the
table keeps its indexes and constraints. The cost on PostgreSQL: DROP INDEX locks the table
(ACCESS EXCLUSIVE) until the import commits, so readers of the table wait for a large load
instead of reading around it (SQLite's readers keep reading the last commit); hence only when the
load at least doubles the table.
"""
import gc
from contextlib import contextmanager

from peewee import ForeignKeyField, IntegrityError

from app.db import db, is_postgres
from app.services.bundle.sql import any_of

MIN_ROWS = 10_000  # below this the indexes are kept whatever the table's size
MAINTENANCE_WORK_MEM = "256MB"
IMPORT_CACHE_MB = 256


def stored_rows_estimate(table):
    """PostgreSQL's estimate of the table's rows (pg_class.reltuples, kept by ANALYZE, which
    every large import runs); -1 or 0 for a table never analysed. SQLite: its largest rowid, at
    least its rows (read from the end of its tree, not counted)."""
    if not is_postgres():
        return db.execute_sql(f'SELECT max(rowid) FROM "{table}"').fetchone()[0] or 0
    row = db.execute_sql("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", (table,)).fetchone()
    return row[0] if row else 0


def _secondary_indexes(table):
    """(name, definition) of the table's indexes that back no constraint (the primary key and
    constraints stay; SQLite gives those no definition of their own), nor another table's foreign key
    (its unique index on the columns a foreign key names: SQLite refuses to write the referencing
    table without it, PostgreSQL's constraint depends on it)."""
    if not is_postgres():
        referenced = {(fk.dest_column,) for other in db.get_tables() for fk in db.get_foreign_keys(other)
                      if fk.dest_table == table}
        columns = {index.name: tuple(index.columns) for index in db.get_indexes(table)}
        return [(name, sql) for name, sql in db.execute_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
            " AND sql IS NOT NULL ORDER BY name", (table,)).fetchall() if columns.get(name) not in referenced]
    return db.execute_sql(
        "SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x"
        " JOIN pg_class i ON i.oid = x.indexrelid"
        " WHERE x.indrelid = %s::regclass"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)"
        " ORDER BY i.relname", (table,)).fetchall()


def _foreign_keys(table):
    if not is_postgres():
        return []  # SQLite cannot drop a table's foreign key
    return db.execute_sql(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = %s::regclass AND contype = 'f' ORDER BY conname", (table,)).fetchall()


@contextmanager
def indexes_rebuilt(model, incoming):
    """Runs the block (a bulk insert of `incoming` rows into `model`'s table) with the table's
    secondary indexes (and PostgreSQL's foreign keys) dropped, then builds them again, when that
    pays: for at least MIN_ROWS rows that at least double the table. Inside a transaction."""
    table = model._meta.table_name
    if incoming < MIN_ROWS or not db.in_transaction() or incoming < stored_rows_estimate(table):
        yield
        return
    indexes, foreign_keys = _secondary_indexes(table), _foreign_keys(table)
    for name, _ in foreign_keys:
        db.execute_sql(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        db.execute_sql(f'DROP INDEX "{name}"')
    yield
    if is_postgres():
        db.execute_sql(f"SET LOCAL maintenance_work_mem = '{MAINTENANCE_WORK_MEM}'")
    for _, definition in indexes:
        db.execute_sql(definition)
    for name, definition in foreign_keys:
        db.execute_sql(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')


@contextmanager
def import_cache(records):
    """SQLite: a page cache of IMPORT_CACHE_MB for this connection while it imports a large
    bundle (the pool's connections keep SQLITE_CACHE_MB, part of each worker's memory), put back
    after. A cache only: durability settings (synchronous, journal_mode) stay as they are, since
    turning them off would let a crash leave half an import behind."""
    if is_postgres() or records < MIN_ROWS or db.in_transaction():
        yield
        return
    kept = db.execute_sql("PRAGMA cache_size").fetchone()[0]
    db.execute_sql(f"PRAGMA cache_size = {-1024 * IMPORT_CACHE_MB}")
    try:
        yield
    finally:
        db.execute_sql(f"PRAGMA cache_size = {int(kept)}")


@contextmanager
def collector_paused(records):
    """Python's cyclic garbage collector off while a large bundle (MIN_ROWS records or more) is
    imported, back on after. An import allocates millions of tuples, dicts and lists that live
    until it ends and hold no cycles, so each collection walked them for nothing, a measurable
    part of the importer's instructions. What little cyclic garbage an import leaves is collected
    after."""
    if records < MIN_ROWS or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@contextmanager
def references_locked(model, fields, rows):
    """Runs the block (a COPY of `rows`, tuples in `fields` order, into `model`'s table) with
    PostgreSQL's row-by-row foreign key checks replaced by one check per foreign key, when that
    pays (at least MIN_ROWS rows) and the role may do it.

    Each foreign key's check is a trigger that reads and locks the referenced row (FOR KEY SHARE)
    once per inserted row, a large part of a COPY of many compatibilities. Here the referenced
    rows are locked the same way by one statement per foreign key, which fails the import when
    any is missing (the importer validated them before, but a concurrent delete may have come
    since), and the COPY runs with `session_replication_role = replica`, which skips those
    triggers for this transaction until it is set back right after the COPY. The constraints
    stay as they are for every other write, and no lock is taken on the referenced tables beyond
    the rows themselves. Setting it needs a superuser or, from PostgreSQL 15, `GRANT SET ON
    PARAMETER session_replication_role`; a role without either keeps the row-by-row checks."""
    if not is_postgres() or len(rows) < MIN_ROWS or not db.in_transaction() or not _may_skip_row_triggers():
        yield
        return
    table = model._meta.table_name
    names = [f if isinstance(f, str) else f.name for f in fields]
    for field in model._meta.sorted_fields:
        if not isinstance(field, ForeignKeyField) or field.name not in names:
            continue
        at = names.index(field.name)
        wanted = {row[at] for row in rows} - {None}
        target, column = field.rel_model._meta.table_name, field.rel_field.column_name
        found = set()
        values = sorted(wanted)  # a fixed order: two imports lock shared rows in the same order
        for start in range(0, len(values), LOCK_CHUNK):
            where, params = any_of(f'"{column}"', values[start:start + LOCK_CHUNK])
            sql = f'SELECT "{column}" FROM "{target}" WHERE {where} ORDER BY "{column}" FOR KEY SHARE'
            found.update(v for (v,) in db.execute_sql(sql, params).fetchall())
        missing = wanted - found
        if missing:
            raise IntegrityError(f'insert or update on table "{table}" violates foreign key constraint: '
                                 f'{field.column_name} {sorted(missing)[:5]} not present in table "{target}"')
    db.execute_sql("SET LOCAL session_replication_role = replica")
    yield
    db.execute_sql("SET LOCAL session_replication_role = origin")


LOCK_CHUNK = 50_000


def _may_skip_row_triggers():
    superuser, version = db.execute_sql(
        "SELECT current_setting('is_superuser'), current_setting('server_version_num')::int").fetchone()
    if superuser == "on":
        return True
    return version >= 150000 and db.execute_sql(
        "SELECT has_parameter_privilege('session_replication_role', 'SET')").fetchone()[0]
