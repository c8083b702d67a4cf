"""The product attribute rows name their product by its integer key (Product.key); a database whose
rows named it by its text id is migrated in place (0016)."""
import copy

from app.db import db, is_postgres
from app.migrations import create_schema
from app.migrations.sqlite_tables import set_aside
from app.models import Product, ProductAttribute, ProductKeyOrder
from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
from app.services.bundle import export_bundle
from app.services.finder import facets
from app.services.row_keys.order import keys_follow_ids
from tests.finder.data import AUTH, DOMAIN, finder_bundle
from tests.finder.test_import import top, total

MIGRATION = "0016_attribute_keys"
PRODUCTS, TABLE = Product._meta.table_name, ProductAttribute._meta.table_name
COUNT = "/catalog_compatibilities/products_search/count_family_products"
SEARCH = "/catalog_compatibilities/products_search/chunks"
# The indexes as they were before 0016, named after the product's text id.
BY_ID = [f'CREATE UNIQUE INDEX "{TABLE}_product_id_attribute_id" ON "{TABLE}" ("product_id", "attribute_id")',
         f'CREATE INDEX "{TABLE}_scope_id_value_id_product_id" ON "{TABLE}" ("scope_id", "value_id", "product_id")',
         f'CREATE INDEX "{TABLE}_scope_id_value_key_product_id" ON "{TABLE}" ("scope_id", "value_key", "product_id")']


def as_before_the_keys():
    """The attribute rows naming their product by its text id, as before 0016 (and so as 0005 left
    them): to go back before 0015 too, which takes the products' keys away, turn them back first."""
    by_key = [index.name for index in db.get_indexes(TABLE) if "product_key" in index.columns]
    if is_postgres():
        db.execute_sql(f'ALTER TABLE "{TABLE}" DROP CONSTRAINT "{TABLE}_product_key_fkey",'
                       ' ADD COLUMN "product_id" VARCHAR(40)')
        db.execute_sql(f'UPDATE "{TABLE}" a SET "product_id" = p."id" FROM "{PRODUCTS}" p'
                       ' WHERE p."key" = a."product_key"')
        for name in by_key:
            db.execute_sql(f'DROP INDEX "{name}"')
        db.execute_sql(f'ALTER TABLE "{TABLE}" DROP COLUMN "product_key", ALTER COLUMN "product_id" SET NOT NULL,'
                       f' ADD FOREIGN KEY ("product_id") REFERENCES "{PRODUCTS}" ("id") ON DELETE CASCADE')
    else:
        ddl, _, keyed = set_aside(db, TABLE, "keyed")
        ddl = ddl.replace('"product_key" INTEGER', '"product_id" VARCHAR(40)')
        ddl = ddl.replace(f'FOREIGN KEY ("product_key") REFERENCES "{PRODUCTS}" ("key")',
                          f'FOREIGN KEY ("product_id") REFERENCES "{PRODUCTS}" ("id")')
        db.execute_sql(ddl)
        kept = [c.name for c in db.get_columns(TABLE) if c.name != "product_id"]
        names, selected = ", ".join(f'"{n}"' for n in kept), ", ".join(f'a."{n}"' for n in kept)
        db.execute_sql(f'INSERT INTO "{TABLE}" ("product_id", {names}) SELECT p."id", {selected} FROM "{keyed}" a'
                       f' JOIN "{PRODUCTS}" p ON p."key" = a."product_key"')
        db.execute_sql(f'DROP TABLE "{keyed}"')
    for statement in BY_ID:
        db.execute_sql(statement)
    db.drop_tables([ProductKeyOrder])
    db.execute_sql(f"DELETE FROM schema_migration WHERE name = '{MIGRATION}'")


def table_shape():
    """product_attribute's columns, indexes and constraints as the database describes them (on
    PostgreSQL the columns as a set: a column added back goes last)."""
    if is_postgres():
        columns = db.execute_sql(
            "SELECT column_name, data_type, character_maximum_length, is_nullable, collation_name, column_default"
            " FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = %s",
            (TABLE,)).fetchall()
        indexes = db.execute_sql("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", (TABLE,))
        constraints = db.execute_sql("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                                     " WHERE conrelid = %s::regclass", (TABLE,))
        return sorted(columns), sorted(indexes.fetchall()), sorted(constraints.fetchall())
    return sorted(db.execute_sql("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ?", (TABLE,)).fetchall())


def _columns():
    return {column.name for column in db.get_columns(TABLE)}


def _family_count(client, attributes):
    response = client.post(COUNT, headers=AUTH, json={"domain_id": DOMAIN, "attributes": attributes})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["count"]


def _answers(client):
    """What the finder, the family count, the products search and a product's page answer."""
    vw = [{"id": "BRAND", "value_ids": ["60249"]}]
    search = client.post(SEARCH, headers=AUTH, json={"domain_id": DOMAIN, "site_id": "MLA",
                                                     "known_attributes": vw, "limit": 50}).get_json()
    return (top(client, "BRAND"), top(client, "MODEL", vw), total(client, vw), search,
            _family_count(client, [{"id": "BRAND", "value_name": "citroen"}]),
            _family_count(client, [{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_id": "62109"}]),
            client.get("/products/MLA900001", headers=AUTH).get_json())


def _rows():
    """Each attribute row with the id of the product its key names: the same before and after the
    migration when each row holds its own product's key."""
    return sorted(ProductAttribute.select(Product.id, Product.key, ProductAttribute.product, ProductAttribute.scope,
                                          ProductAttribute.attribute_id, ProductAttribute.value_id,
                                          ProductAttribute.value_name, ProductAttribute.value_key,
                                          ProductAttribute.position)
                  .join(Product, on=ProductAttribute.product == Product.key).tuples(), key=repr)


def test_attribute_rows_name_their_product_by_its_key(run_db, load_bundle):
    bundle = finder_bundle()
    load_bundle(bundle)
    assert "product_id" not in run_db(_columns) and "product_key" in run_db(_columns)
    keys = run_db(lambda: dict(Product.select(Product.id, Product.key).tuples()))
    stored = run_db(lambda: db.execute_sql(f'SELECT "product_key", "attribute_id" FROM "{TABLE}"').fetchall())
    assert sorted(stored) == sorted((keys[p["id"]], a["id"]) for p in bundle["products"] for a in p["attributes"])


def test_migration_rewrites_the_attribute_rows_with_their_products_keys(client, run_db, load_bundle):
    load_bundle(finder_bundle())
    answers, exported = _answers(client), run_db(export_bundle)["products"]
    shape, rows = run_db(table_shape), run_db(_rows)
    run_db(lambda: db.atomic()(as_before_the_keys)())
    assert "product_id" in run_db(_columns) and "product_key" not in run_db(_columns)
    assert run_db(lambda: db.execute_sql(f'SELECT COUNT(*) FROM "{TABLE}"').fetchone()[0]) == len(rows)
    assert run_db(create_schema) == [MIGRATION]  # first: the tests after this one need this code's schema
    assert run_db(table_shape) == shape  # as a database made by this code: the key, its indexes, their names
    assert "product_id" not in run_db(_columns)
    indexes = run_db(lambda: {index.name: tuple(index.columns) for index in db.get_indexes(TABLE)})
    assert indexes == {f"{TABLE}_product_key_attribute_id": ("product_key", "attribute_id"),
                       f"{TABLE}_scope_id_value_id_product_key": ("scope_id", "value_id", "product_key"),
                       f"{TABLE}_scope_id_value_key_product_key": ("scope_id", "value_key", "product_key")}
    assert run_db(_rows) == rows  # each row holds its product's key
    assert _answers(client) == answers
    assert run_db(export_bundle)["products"] == exported
    # The key is a foreign key again: a deleted product's rows go with it.
    key = run_db(lambda: Product.get_by_id("MLA900001").key)
    held = sum(1 for _, _, product_key, *_ in rows if product_key == key)
    assert held
    run_db(lambda: Product.delete().where(Product.id == "MLA900001").execute())
    assert run_db(lambda: ProductAttribute.select().where(ProductAttribute.product == key).count()) == 0
    assert run_db(ProductAttribute.select().count) == len(rows) - held
    # An imported product's rows take its key.
    added = copy.deepcopy(next(p for p in finder_bundle()["products"] if p["id"] == "MLA900001"))
    added["id"] = "MLA990000"
    load_bundle({"products": [added]})
    key = run_db(lambda: Product.get_by_id("MLA990000").key)
    assert run_db(lambda: ProductAttribute.select().where(ProductAttribute.product == key).count()) == held


def test_migration_records_whether_each_domains_keys_follow_its_ids(client, run_db, load_bundle):
    """Keys given before 0016 came in each bundle's order: a domain whose keys do not follow its ids
    is recorded so, and its pages sort the ids."""
    bundle = finder_bundle()
    load_bundle(bundle)
    answers = _answers(client)
    run_db(lambda: db.atomic()(as_before_the_keys)())
    children = sorted(p["id"] for p in bundle["products"] if p["domain_id"] == DOMAIN and p.get("parent_id"))

    def swap_two_keys():  # as an import in another order would have given them
        first, last = (Product.get_by_id(i).key for i in (children[0], children[-1]))
        for product_id, key in ((children[0], -1), (children[-1], first), (children[0], last)):
            Product.update(key=key).where(Product.id == product_id).execute()
    run_db(lambda: db.atomic()(swap_two_keys)())
    others = {p["domain_id"] for p in bundle["products"]} - {DOMAIN}
    assert run_db(create_schema) == [MIGRATION]
    assert not run_db(keys_follow_ids, DOMAIN)
    assert others and all(run_db(keys_follow_ids, domain_id) for domain_id in others)
    greatest = run_db(lambda: ProductKeyOrder.get_by_id(DOMAIN).greatest_id)
    assert greatest == max(p["id"] for p in bundle["products"] if p["domain_id"] == DOMAIN)
    assert _answers(client) == answers


def test_migration_on_a_database_that_has_it_changes_nothing(client, run_db, load_bundle):
    load_bundle(finder_bundle())
    answers, shape, rows = _answers(client), run_db(table_shape), run_db(_rows)
    run_db(db.execute_sql, f"DELETE FROM schema_migration WHERE name = '{MIGRATION}'")
    assert run_db(create_schema) == [MIGRATION]
    assert (run_db(table_shape), run_db(_rows), _answers(client)) == (shape, rows, answers)


def test_the_finders_counts_0005_left_are_made_and_those_in_place_are_kept(client, run_db, load_bundle,
                                                                           monkeypatch):
    """0005 empties the finder's counts (they are read by the product's key); 0016 makes those of each
    domain with child products and none, and leaves the others alone."""
    load_bundle(finder_bundle())
    answers = _answers(client)
    run_db(lambda: db.atomic()(as_before_the_keys)())
    for model in (FinderPairFacet, FinderFacet, FinderDomain):
        run_db(model.delete().where(model.domain_id == DOMAIN).execute)
    others = run_db(lambda: sorted(FinderFacet.select().where(FinderFacet.domain_id != DOMAIN).tuples()))
    assert others  # the other domain's, made by the import
    recounted, refresh = [], facets.refresh_facets

    def recording(domain_ids):
        recounted.extend(domain_ids)
        return refresh(domain_ids)
    monkeypatch.setattr(facets, "refresh_facets", recording)
    assert run_db(create_schema) == [MIGRATION]
    assert recounted == [DOMAIN]
    assert _answers(client) == answers
    assert run_db(lambda: sorted(FinderFacet.select().where(FinderFacet.domain_id != DOMAIN).tuples())) == others
