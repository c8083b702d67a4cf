"""Products' integer keys (Product.key) and the compatibilities that name their item and product by the
two keys; a database whose compatibilities named them by their text ids is migrated in place (0015)."""
import pytest
from peewee import fn

from app.db import db, is_postgres
from app.migrations import create_schema
from app.migrations.sqlite_tables import set_aside
from app.models import Compatibility, Item, Product
from app.services.bundle import products
from app.services.row_keys import queries as row_keys
from tests.bundles import vehicle_products
from tests.catalog.test_attribute_keys import MIGRATION as ATTRIBUTE_KEYS
from tests.catalog.test_attribute_keys import as_before_the_keys as as_before_the_attribute_keys
from tests.compat.compat_data import SELLER_H, compat, full_bundle, listing, product, url
from tests.helpers import recorded_statements

MIGRATION = "0015_compatibility_keys"
ITEMS, PRODUCTS, TABLE = Item._meta.table_name, Product._meta.table_name, Compatibility._meta.table_name


def as_before_the_keys():
    """The products without their key and the compatibilities naming their item and product by text ids,
    with their copy of the product's domain, as before 0015 (and so the attribute rows naming their
    product by its id, as before 0016: first, while the products have their keys)."""
    as_before_the_attribute_keys()
    if is_postgres():
        db.execute_sql(f'ALTER TABLE "{TABLE}" DROP CONSTRAINT "{TABLE}_item_key_fkey",'
                       f' DROP CONSTRAINT "{TABLE}_product_key_fkey",'
                       ' ADD COLUMN "item_id" VARCHAR(40), ADD COLUMN "product_id" VARCHAR(40),'
                       ' ADD COLUMN "domain_id" VARCHAR(100)')
        db.execute_sql(f'UPDATE "{TABLE}" c SET "item_id" = i."id" FROM "{ITEMS}" i WHERE i."key" = c."item_key"')
        db.execute_sql(f'UPDATE "{TABLE}" c SET "product_id" = p."id", "domain_id" = p."domain_id"'
                       f' FROM "{PRODUCTS}" p WHERE p."key" = c."product_key"')
        db.execute_sql(f'ALTER TABLE "{TABLE}" DROP COLUMN "item_key", DROP COLUMN "product_key",'
                       ' ALTER COLUMN "item_id" SET NOT NULL,'
                       f' ADD FOREIGN KEY ("item_id") REFERENCES "{ITEMS}" ("id") ON DELETE CASCADE,'
                       f' ADD FOREIGN KEY ("product_id") REFERENCES "{PRODUCTS}" ("id") ON DELETE CASCADE')
    else:
        ddl, _, keyed = set_aside(db, TABLE, "keyed")
        ddl = ddl.replace('"item_key" INTEGER', '"item_id" VARCHAR(40)')
        ddl = ddl.replace('"product_key" INTEGER', '"product_id" VARCHAR(40), "domain_id" VARCHAR(100)')
        for of in ("item", "product"):
            ddl = ddl.replace(f'FOREIGN KEY ("{of}_key") REFERENCES "{of}" ("key")',
                              f'FOREIGN KEY ("{of}_id") REFERENCES "{of}" ("id")')
        db.execute_sql(ddl)
        kept = [c.name for c in db.get_columns(TABLE) if c.name not in ("item_id", "product_id", "domain_id")]
        names, selected = ", ".join(f'"{n}"' for n in kept), ", ".join(f'c."{n}"' for n in kept)
        db.execute_sql(f'INSERT INTO "{TABLE}" ("item_id", "product_id", "domain_id", {names})'
                       f' SELECT i."id", p."id", p."domain_id", {selected} FROM "{keyed}" c'
                       f' JOIN "{ITEMS}" i ON i."key" = c."item_key"'
                       f' LEFT JOIN "{PRODUCTS}" p ON p."key" = c."product_key"')
        db.execute_sql(f'DROP TABLE "{keyed}"')
        db.execute_sql(f'DROP TRIGGER "{PRODUCTS}_key_given"')
    db.execute_sql(f'CREATE UNIQUE INDEX "{TABLE}_item_id_product_id" ON "{TABLE}" ("item_id", "product_id")')
    db.execute_sql(f'CREATE INDEX "{TABLE}_product_id" ON "{TABLE}" ("product_id")')
    db.execute_sql(f'DROP INDEX "{PRODUCTS}_key"')
    db.execute_sql(f'ALTER TABLE "{PRODUCTS}" DROP COLUMN "key"')  # PostgreSQL drops its sequence with it
    db.execute_sql(f"DELETE FROM schema_migration WHERE name = '{MIGRATION}'")


def _columns():
    return {column.name for column in db.get_columns(TABLE)}


def _vehicle(product_id, **fields):
    """A catalog record of a child vehicle product, under a new id."""
    return {**next(p for p in vehicle_products() if p.get("parent_id")), "id": product_id, **fields}


def _answers(client):
    """What a seller reads of its items' compatibilities: the lists and the change history."""
    return [listing(client, item_id) for item_id in ("MLA100", "MLA101")] + [
        client.get(url(item_id, suffix="/history?limit=50"), headers=SELLER_H).get_json()
        for item_id in ("MLA100", "MLA101")]


def _written(client, load_bundle):
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001"), compat("MLA101", "MLA90002")]))
    assert client.post(url(), json={"products": [product("MLA90005")]}, headers=SELLER_H).status_code == 200
    return _answers(client)


def test_compatibilities_name_their_item_and_product_by_keys(client, run_db, load_bundle):
    before = _written(client, load_bundle)
    keys = run_db(lambda: (dict(Item.select(Item.id, Item.key).tuples()),
                           dict(Product.select(Product.id, Product.key).tuples())))
    stored = run_db(lambda: set(Compatibility.select(Compatibility.item_key, Compatibility.product_key).tuples()))
    items, products = keys
    assert None not in products.values() and len(set(products.values())) == len(products)
    assert {(items["MLA100"], products["MLA90001"]), (items["MLA100"], products["MLA90005"]),
            (items["MLA101"], products["MLA90002"])} <= stored
    assert {"item_id", "product_id", "domain_id"}.isdisjoint(run_db(_columns))
    # The answers still name the products by their text ids, with their domain.
    listed = {(p["catalog_product_id"], p["domain_id"]) for p in before[0]["products"]}
    assert {("MLA90001", "MLA-CARS_AND_VANS"), ("MLA90005", "MLA-CARS_AND_VANS")} <= listed


def test_an_imported_product_gets_the_next_keys_and_a_stored_one_keeps_its_key(run_db, load_bundle):
    load_bundle(full_bundle())
    keys = run_db(lambda: dict(Product.select(Product.id, Product.key).tuples()))
    load_bundle({"products": [_vehicle("MLA90001", name="Otro nombre"), _vehicle("MLA90077"), _vehicle("MLA90078")]})
    after = run_db(lambda: dict(Product.select(Product.id, Product.key).tuples()))
    assert {k: v for k, v in after.items() if k not in ("MLA90077", "MLA90078")} == keys
    assert sorted([after["MLA90077"], after["MLA90078"]]) == [max(keys.values()) + 1, max(keys.values()) + 2]


def test_migration_rewrites_the_compatibilities_with_their_keys(client, run_db, load_bundle):
    before = _written(client, load_bundle)
    run_db(lambda: db.atomic()(as_before_the_keys)())
    assert {"item_id", "product_id", "domain_id"} <= run_db(_columns)
    # First: the tests after this one need this code's schema.
    assert run_db(create_schema) == [MIGRATION, ATTRIBUTE_KEYS]
    assert _answers(client) == before
    assert {"item_id", "product_id", "domain_id"}.isdisjoint(run_db(_columns))
    keys = run_db(lambda: [key for _, key in Product.select(Product.id, Product.key).order_by(Product.id).tuples()])
    assert keys == list(range(1, len(keys) + 1))
    indexes = run_db(lambda: {tuple(i.columns) for i in db.get_indexes(TABLE)})
    assert {("item_key", "product_key"), ("product_key",)} <= indexes
    assert not {("item_id", "product_id"), ("product_id",)} & indexes
    load_bundle({"products": [_vehicle("MLA90077")]})  # the next key follows them
    assert run_db(lambda: Product.get_by_id("MLA90077").key) == len(keys) + 1
    # The keys are foreign keys again: a compatibility of a deleted product goes with it.
    assert client.post(url(), json={"products": [product("MLA90077")]}, headers=SELLER_H).status_code == 200
    run_db(lambda: Product.delete().where(Product.id == "MLA90077").execute())
    assert "MLA90077" not in str(_answers(client)[0])


def _trigger_stored():
    return bool(db.execute_sql("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                               (f"{PRODUCTS}_key_given",)).fetchall())


def test_a_large_product_import_writes_its_keys_without_sqlites_trigger_and_puts_it_back(
        run_db, load_bundle, monkeypatch):
    if run_db(is_postgres):
        pytest.skip("SQLite's trigger; PostgreSQL's sequence is the column's default")
    monkeypatch.setattr(row_keys, "MIN_ROWS", 2)
    load_bundle(full_bundle())
    with recorded_statements() as statements:
        load_bundle({"products": [_vehicle("MLA90077"), _vehicle("MLA90078")]})
    assert any(s.startswith(f'DROP TRIGGER IF EXISTS "{PRODUCTS}_key_given"') for s in statements)
    assert run_db(_trigger_stored)
    top = run_db(lambda: Product.select(fn.MAX(Product.key)).scalar())

    def stored_without_a_key():  # as any other writer would
        with db.atomic():
            Product.insert(id="MLA90079", domain="MLA-CARS_AND_VANS", site="MLA", name="x").execute()
        return Product.get_by_id("MLA90079").key
    assert run_db(stored_without_a_key) == top + 1

    def failing(*args):
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(products, "_write_attributes", failing)  # after the products' insert
    with pytest.raises(RuntimeError, match="the disk is full"):
        load_bundle({"products": [_vehicle("MLA90080"), _vehicle("MLA90081")]})
    assert run_db(_trigger_stored)  # the rollback put it back
    assert not run_db(lambda: Product.select().where(Product.id == "MLA90080").exists())
