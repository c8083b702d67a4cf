"""Integer keys (Item.key, Product.key), given by the database when a row is first stored, whatever
stores it, never changed nor reused: the compatibilities and the change records name their item and
product by eight bytes instead of their text ids, which keeps their rows and index entries narrow.

PostgreSQL draws them from a sequence (the column's default); SQLite has no sequences, so a trigger
gives a new row the next key after the greatest (its writes are serialised, so two inserts never
draw the same one). An upsert that finds the row stored updates it and leaves its key alone. A bulk
import asks for its new rows' keys up front (next_keys) and writes them with the rows (keys_given).
"""
from contextlib import contextmanager

from app.db import db, is_postgres
from app.services.bundle.bulk import MIN_ROWS
from app.services.bundle.sql import select_in

COLUMN = "key"


def _names(model):
    table = model._meta.table_name
    return table, f"{table}_{COLUMN}_seq", f"{table}_{COLUMN}_given"


def ensure_keys(model):
    """The default or the trigger that gives keys, on a fresh schema and after the migration that
    added the column (which gave the rows stored before it theirs first)."""
    table, sequence, trigger = _names(model)
    if is_postgres():
        # Once in place, nothing is altered: an ALTER TABLE would lock the table against every reader
        # of the service each time the schema is checked (every `db upgrade`).
        default, nullable = db.execute_sql(
            "SELECT column_default, is_nullable FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = %s AND column_name = %s", (table, COLUMN)).fetchone()
        if default is not None and nullable == "NO":
            return
        db.execute_sql(f'CREATE SEQUENCE IF NOT EXISTS "{sequence}" OWNED BY "{table}"."{COLUMN}"')
        db.execute_sql(f"SELECT setval('\"{sequence}\"', max(\"{COLUMN}\")) FROM \"{table}\""
                       f" HAVING max(\"{COLUMN}\") > 0")
        db.execute_sql(f'ALTER TABLE "{table}" ALTER COLUMN "{COLUMN}" SET DEFAULT nextval(\'"{sequence}"\'),'
                       f' ALTER COLUMN "{COLUMN}" SET NOT NULL')
        return
    db.execute_sql(f'CREATE TRIGGER IF NOT EXISTS "{trigger}" AFTER INSERT ON "{table}" WHEN NEW."{COLUMN}" IS NULL'
                   f' BEGIN UPDATE "{table}" SET "{COLUMN}" = (SELECT coalesce(max("{COLUMN}"), 0) + 1 FROM "{table}")'
                   f' WHERE rowid = NEW.rowid; END')


def number_stored(model, order):
    """Keys for the rows stored without one (a migration), in the order of the columns `order`."""
    table = model._meta.table_name
    by = ", ".join(f'"{column}"' for column in order)
    db.execute_sql(f'UPDATE "{table}" SET "{COLUMN}" = numbered.n FROM (SELECT "id", row_number() OVER'
                   f' (ORDER BY {by}) + coalesce((SELECT max("{COLUMN}") FROM "{table}"), 0) AS n'
                   f' FROM "{table}" WHERE "{COLUMN}" IS NULL) AS numbered WHERE "{table}"."id" = numbered."id"')


def next_keys(model, count):
    """`count` keys for new rows of `model` that no other writer will draw, in ascending order. Inside
    the caller's write transaction: SQLite's begins with the write lock (app.db), which keeps them
    unused until it commits; PostgreSQL's sequence never gives a key twice."""
    if count <= 0:
        return []
    table, sequence, _ = _names(model)
    if is_postgres():
        return [key for (key,) in db.execute_sql(
            f"SELECT nextval('\"{sequence}\"') FROM generate_series(1, %s) ORDER BY 1", (count,)).fetchall()]
    first = db.execute_sql(f'SELECT coalesce(max("{COLUMN}"), 0) + 1 FROM "{table}"').fetchone()[0]
    return list(range(first, first + count))


@contextmanager
def keys_given(model, rows):
    """Runs the block, an insert of `rows` rows of `model` that carry their keys (next_keys), without
    SQLite's trigger when they are many (MIN_ROWS): run once per inserted row only to find its key
    given, it cost more than the insert itself. Inside the write transaction, whose lock keeps every
    other writer out until the trigger is back (or, on an error, the rollback puts it back)."""
    if is_postgres() or rows < MIN_ROWS or not db.in_transaction():
        yield
        return
    db.execute_sql(f'DROP TRIGGER IF EXISTS "{_names(model)[2]}"')
    yield
    ensure_keys(model)


def keys_of(model, ids):
    """{id: key} of the stored rows of `model` among `ids`."""
    return dict(select_in(model, ["id", COLUMN], "id", list(ids)))


def ids_of(model, keys):
    """{key: id} of the stored rows of `model` among `keys`."""
    return dict(select_in(model, [COLUMN, "id"], COLUMN, list(keys)))


# Any fixed number: the key of the advisory lock an import holds while it gives new products keys.
PRODUCT_KEYS_LOCK = 0x6B657973


def lock_product_keys():
    """PostgreSQL: waits for any other import that is giving products keys, until this transaction
    ends (SQLite's write transaction excludes every other writer already)."""
    if is_postgres():
        db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (PRODUCT_KEYS_LOCK,))


def ids_compare_by_code_points():
    """Whether the database orders product ids as Python orders str (by code point): SQLite's
    BINARY collation, PostgreSQL's C and C.UTF-8 under the C library and its builtin provider (17)
    do; a locale's and ICU's do not. The provider's column is read through to_jsonb, since servers
    before 15 have none (the C library's)."""
    if not is_postgres():
        return True
    return orders_by_code_points(*db.execute_sql("SELECT datcollate, to_jsonb(d) ->> 'datlocprovider'"
                                                 " FROM pg_database d WHERE datname = current_database()").fetchone())


def orders_by_code_points(collation, provider):
    """Whether a PostgreSQL database of this default collation and provider (None before 15) does."""
    return provider == "b" or (provider in (None, "c")
                               and collation.lower().replace("-", "") in ("c", "posix", "c.utf8"))


def ids_ascend(ids):
    """Whether the database orders `ids` (a list) as they come, each before the next."""
    for start in range(0, max(len(ids) - 1, 0), ORDER_CHUNK):
        chunk = ids[start:start + ORDER_CHUNK + 1]
        if not db.execute_sql("SELECT coalesce(bool_and(a < b), true) FROM unnest(%s::text[], %s::text[]) AS p(a, b)",
                              (chunk[:-1], chunk[1:])).fetchone()[0]:
            return False
    return True


ORDER_CHUNK = 100_000


def stored_in_domain(domain_id):
    """Whether the domain holds a product."""
    return db.execute_sql(f'SELECT 1 FROM "product" WHERE "domain_id" = {db.param} LIMIT 1', (domain_id,)).fetchone() \
        is not None


def stored_orders():
    """(domain id, its greatest product id, 1 when its products' keys follow their ids else 0) of
    each domain with products, read from all of them."""
    return db.execute_sql(
        'SELECT "domain_id", max("id"), min(CASE WHEN "previous" IS NULL OR "previous" < "key" THEN 1 ELSE 0 END)'
        ' FROM (SELECT "domain_id", "id", "key", lag("key") OVER (PARTITION BY "domain_id" ORDER BY "id")'
        ' AS "previous" FROM "product") AS ordered GROUP BY "domain_id"').fetchall()
