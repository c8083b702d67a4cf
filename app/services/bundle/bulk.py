"""Large loads into an indexed table: on PostgreSQL, its secondary indexes and foreign keys are
dropped before the rows are copied in and built again after, all inside the import's transaction.

COPYing 500,000 product attribute rows cost 9 s while PostgreSQL kept three B-tree indexes and
checked a foreign key row by row (a lookup per row); built once from sorted data, with a larger
`maintenance_work_mem` for this transaction only, the indexes cost a fraction of that, and the
foreign key is checked again by one anti-join when it is added back. PostgreSQL's DDL is
transactional: an import that fails rolls the drops back with its rows, so the table keeps its
indexes and constraints. The cost: DROP INDEX locks the table (ACCESS EXCLUSIVE) until the
import commits, so readers of the table wait for a large load instead of reading around it;
hence only when the load at least doubles the table.

SQLite gains nothing from it (measured: its inserts saved 1.6 s of 3 s and CREATE INDEX took
1.6 s back), so there the rows are inserted with the indexes in place.
"""
from contextlib import contextmanager

from app.db import db, is_postgres

MIN_ROWS = 10_000  # below this the indexes are kept whatever the table's size
MAINTENANCE_WORK_MEM = "256MB"
IMPORT_CACHE_MB = 256


def stored_rows_estimate(table):
    """PostgreSQL's estimate of the table's rows (pg_class.reltuples, kept by ANALYZE, which
    every large import runs); -1 or 0 for a table never analysed."""
    row = db.execute_sql("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", (table,)).fetchone()
    return row[0] if row else 0


def _secondary_indexes(table):
    """(name, definition) of the table's indexes that back no constraint (the primary key and
    constraints stay)."""
    return db.execute_sql(
        "SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x"
        " JOIN pg_class i ON i.oid = x.indexrelid"
        " WHERE x.indrelid = %s::regclass"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)"
        " ORDER BY i.relname", (table,)).fetchall()


def _foreign_keys(table):
    return db.execute_sql(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid = %s::regclass AND contype = 'f' ORDER BY conname", (table,)).fetchall()


@contextmanager
def indexes_rebuilt(model, incoming):
    """Runs the block (a bulk insert of `incoming` rows into `model`'s table) with the table's
    secondary indexes and foreign keys dropped, then builds them again, when that pays: on
    PostgreSQL, for at least MIN_ROWS rows that at least double the table. Inside a transaction."""
    table = model._meta.table_name
    if not is_postgres() or incoming < MIN_ROWS or not db.in_transaction() \
            or incoming < stored_rows_estimate(table):
        yield
        return
    indexes, foreign_keys = _secondary_indexes(table), _foreign_keys(table)
    for name, _ in foreign_keys:
        db.execute_sql(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        db.execute_sql(f'DROP INDEX "{name}"')
    yield
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
