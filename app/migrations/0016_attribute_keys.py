"""The product attribute rows name their product by its integer key (Product.key, given by 0015), as
the compatibilities do, instead of its text id: the three indexes end with it, and integers sort and
compare faster than the ids' collation.

Every row's product is stored (a foreign key) and has its key, so each row finds it. PostgreSQL
changes the column's type in one ALTER TABLE, as 0015 did (one rewrite of the table and its indexes,
whose column order stays: they are renamed); SQLite builds the table again from its own statement
(it cannot change a column's type). Then the finder's counts that 0005 left to this
migration are made: those of each domain with child products and no counts; and each domain's
order of keys is recorded (app/services/row_keys/order.py)."""
import re

from app.migrations.sqlite_tables import set_aside

# The three indexes (unique, columns), their product column "product_{}"; each is named as peewee names
# it, the table's name and its columns'.
INDEXES = ((True, ("product_{}", "attribute_id")),
           (False, ("scope_id", "value_id", "product_{}")),
           (False, ("scope_id", "value_key", "product_{}")))


def _index(table, columns, by):
    """(name, columns) of an index whose product column is product_`by`."""
    columns = [column.format(by) for column in columns]
    return f"{table}_{'_'.join(columns)}", columns


def _columns(db, table):
    return {column.name for column in db.get_columns(table)}


def up(migrator, db):
    from app.db import is_postgres
    from app.models import Product, ProductAttribute

    products, table = Product._meta.table_name, ProductAttribute._meta.table_name
    if "product_id" not in _columns(db, table):
        return
    if is_postgres():
        _postgres(db, products, table)
    else:
        _sqlite(db, products, table)
    _count_the_finder()
    _record_the_key_order(db)


def _postgres(db, products, table):
    for (name,) in db.execute_sql("SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'f'"
                                  " AND confrelid = %s::regclass", (table, products)).fetchall():
        db.execute_sql(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
    db.execute_sql('CREATE FUNCTION pg_temp.product_key_of(text) RETURNS bigint LANGUAGE sql STABLE'
                   f' AS $$ SELECT "key" FROM "{products}" WHERE "id" = $1 $$')
    db.execute_sql(f'ALTER TABLE "{table}" ALTER COLUMN "product_id" TYPE bigint'
                   ' USING pg_temp.product_key_of("product_id")')
    db.execute_sql("DROP FUNCTION pg_temp.product_key_of(text)")
    db.execute_sql(f'ALTER TABLE "{table}" RENAME COLUMN "product_id" TO "product_key"')
    for _, columns in INDEXES:
        (old, _), (new, _) = _index(table, columns, "id"), _index(table, columns, "key")
        db.execute_sql(f'ALTER INDEX "{old}" RENAME TO "{new}"')
    db.execute_sql(f'ALTER TABLE "{table}" ADD CONSTRAINT "{table}_product_key_fkey" FOREIGN KEY ("product_key")'
                   f' REFERENCES "{products}" ("key") ON DELETE CASCADE')


def _sqlite(db, products, table):
    statement, _, old = set_aside(db, table, "before_keys")  # its indexes are built again on the key
    statement = re.sub(r'"product_id" [A-Za-z]+(\(\d+\))?', '"product_key" INTEGER', statement, count=1)
    statement = statement.replace(f'FOREIGN KEY ("product_id") REFERENCES "{products}" ("id")',
                                  f'FOREIGN KEY ("product_key") REFERENCES "{products}" ("key")')
    if "product_id" in statement:
        raise RuntimeError(f"{table}'s statement names its product in a way this migration does not know: "
                           f"{statement}")
    db.execute_sql(statement)
    kept = [name for name in _columns(db, table) if name != "product_key"]
    names = ", ".join(f'"{name}"' for name in kept)
    selected = ", ".join(f'a."{name}"' for name in kept)
    db.execute_sql(f'INSERT INTO "{table}" ("product_key", {names}) SELECT p."key", {selected}'
                   f' FROM "{old}" a JOIN "{products}" p ON p."id" = a."product_id"')
    db.execute_sql(f'DROP TABLE "{old}"')
    for unique, columns in INDEXES:
        name, columns = _index(table, columns, "key")
        listed = ", ".join(f'"{column}"' for column in columns)
        db.execute_sql(f'CREATE {"UNIQUE " if unique else ""}INDEX "{name}" ON "{table}" ({listed})')


def _count_the_finder():
    from app.models import Product
    from app.models.finder import FinderDomain
    from app.services.finder.facets import refresh_facets

    counted = {domain_id for (domain_id,) in FinderDomain.select(FinderDomain.domain_id).tuples()}
    with_children = {domain_id for (domain_id,) in Product.select(Product.domain).distinct()
                     .where(Product.parent_id.is_null(False)).tuples()}
    refresh_facets(with_children - counted)


def _record_the_key_order(db):
    """Whether each domain's products have keys in the order of their ids, as the imports before this
    release gave them (in each bundle's order): the finder pages by key only where they do."""
    from app.models import ProductKeyOrder
    from app.services.row_keys.order import record_stored_order

    db.create_tables([ProductKeyOrder], safe=True)
    record_stored_order()
