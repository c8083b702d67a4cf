"""Products get an integer key, as items did in 0014 (app/services/row_keys/queries.py), and the
compatibilities name their item and product by the two keys instead of the text ids; their copy of
the product's domain goes (it is read from the product).

The stored products are numbered in the order of their ids. Every compatibility's item and product
are stored (foreign keys), so each finds its keys. PostgreSQL changes both columns' types in one
ALTER TABLE, as 0014 did (one rewrite of the table and its indexes); SQLite builds the table again
from its own statement (it cannot drop a column a foreign key names)."""
import re

from app.migrations.sqlite_tables import set_aside


def _columns(db, table):
    return {column.name for column in db.get_columns(table)}


def up(migrator, db):
    from app.db import is_postgres
    from app.models import Compatibility, Item, Product
    from app.services.row_keys.queries import ensure_keys, number_stored

    items, products, table = Item._meta.table_name, Product._meta.table_name, Compatibility._meta.table_name
    if "key" not in _columns(db, products):
        db.execute_sql(f'ALTER TABLE "{products}" ADD COLUMN "key" BIGINT')
    number_stored(Product, ("id",))
    db.execute_sql(f'CREATE UNIQUE INDEX IF NOT EXISTS "{products}_key" ON "{products}" ("key")')
    ensure_keys(Product)
    if "item_id" not in _columns(db, table):
        return
    if is_postgres():
        _postgres(db, items, products, table)
    else:
        _sqlite(db, items, products, table)


def _postgres(db, items, products, table):
    for (name,) in db.execute_sql("SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'f'",
                                  (table,)).fetchall():
        db.execute_sql(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
    for of, target in (("item", items), ("product", products)):
        db.execute_sql(f'CREATE FUNCTION pg_temp.{of}_key_of(text) RETURNS bigint LANGUAGE sql STABLE'
                       f' AS $$ SELECT "key" FROM "{target}" WHERE "id" = $1 $$')
    # The dropped column is written as a null by the same rewrite: its bytes go with it.
    db.execute_sql(f'ALTER TABLE "{table}" ALTER COLUMN "item_id" TYPE bigint USING pg_temp.item_key_of("item_id"),'
                   ' ALTER COLUMN "product_id" TYPE bigint USING pg_temp.product_key_of("product_id"),'
                   ' DROP COLUMN "domain_id"')
    for of in ("item", "product"):
        db.execute_sql(f"DROP FUNCTION pg_temp.{of}_key_of(text)")
        db.execute_sql(f'ALTER TABLE "{table}" RENAME COLUMN "{of}_id" TO "{of}_key"')
    db.execute_sql(f'ALTER INDEX "{table}_item_id_product_id" RENAME TO "{table}_item_key_product_key"')
    db.execute_sql(f'ALTER INDEX "{table}_product_id" RENAME TO "{table}_product_key"')
    db.execute_sql(f'ALTER TABLE "{table}"'
                   f' ADD CONSTRAINT "{table}_item_key_fkey" FOREIGN KEY ("item_key") REFERENCES "{items}" ("key")'
                   ' ON DELETE CASCADE,'
                   f' ADD CONSTRAINT "{table}_product_key_fkey" FOREIGN KEY ("product_key")'
                   f' REFERENCES "{products}" ("key") ON DELETE CASCADE')


def _sqlite(db, items, products, table):
    statement, _, old = set_aside(db, table, "before_keys")  # its indexes are built again on the keys
    for of in ("item", "product"):
        statement = re.sub(rf'"{of}_id" [A-Za-z]+(\(\d+\))?', f'"{of}_key" INTEGER', statement, count=1)
        statement = statement.replace(f'FOREIGN KEY ("{of}_id") REFERENCES "{of}" ("id")',
                                      f'FOREIGN KEY ("{of}_key") REFERENCES "{of}" ("key")')
    statement = re.sub(r'"domain_id" [A-Za-z]+(\(\d+\))?( NOT NULL)?, ', "", statement, count=1)
    db.execute_sql(statement)
    kept = [name for name in _columns(db, table) if name not in ("item_key", "product_key")]
    names = ", ".join(f'"{name}"' for name in kept)
    selected = ", ".join(f'c."{name}"' for name in kept)
    db.execute_sql(f'INSERT INTO "{table}" ("item_key", "product_key", {names})'
                   f' SELECT i."key", p."key", {selected} FROM "{old}" c JOIN "{items}" i ON i."id" = c."item_id"'
                   f' LEFT JOIN "{products}" p ON p."id" = c."product_id"')
    db.execute_sql(f'DROP TABLE "{old}"')
    db.execute_sql(f'CREATE UNIQUE INDEX "{table}_item_key_product_key" ON "{table}" ("item_key", "product_key")')
    db.execute_sql(f'CREATE INDEX "{table}_product_key" ON "{table}" ("product_key")')
