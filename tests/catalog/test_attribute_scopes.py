"""Attribute scopes: the attribute rows name their (domain, child flag, attribute) by an integer the
imports share, and a database made before the scopes is migrated in place (0005)."""
import copy

import pytest

from app.db import db, is_postgres
from app.migrations import create_schema
from app.models import AttributeScope, Product, ProductAttribute
from app.services.bundle import export_bundle
from tests.catalog.test_attribute_keys import table_shape
from tests.finder.data import AUTH, DOMAIN, finder_bundle
from tests.finder.test_import import top, total

COUNT = "/catalog_compatibilities/products_search/count_family_products"
# product_attribute as it was made before 0005, its indexes with them.
BEFORE_SCOPES = [
    "CREATE TABLE product_attribute (product_id VARCHAR(40) NOT NULL REFERENCES product (id) ON DELETE CASCADE,"
    " domain_id VARCHAR(100) NOT NULL, is_child BOOLEAN NOT NULL, attribute_id VARCHAR(100) NOT NULL,"
    " value_id VARCHAR(100), value_name VARCHAR(255), value_key VARCHAR(255), position INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX product_attribute_product_id_attribute_id ON product_attribute (product_id, attribute_id)",
    "CREATE INDEX product_attribute_by_value_id ON product_attribute"
    " (domain_id, is_child, attribute_id, value_id, product_id)",
    "CREATE INDEX product_attribute_by_value_key ON product_attribute"
    " (domain_id, is_child, attribute_id, value_key, product_id)",
]


def _family_count(client, attributes):
    response = client.post(COUNT, headers=AUTH, json={"domain_id": DOMAIN, "attributes": attributes})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["count"]


def _answers(client):
    return (top(client, "BRAND"), total(client, [{"id": "BRAND", "value_ids": ["60249"]}]),
            _family_count(client, [{"id": "BRAND", "value_name": "citroen"}]),
            _family_count(client, [{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_id": "62109"}]),
            client.get("/products/MLA700000", headers=AUTH).get_json())


def _scopes():
    return sorted(AttributeScope.select(AttributeScope.domain_id, AttributeScope.is_child,
                                        AttributeScope.attribute_id).tuples())


def test_imports_share_the_scopes_and_a_moved_product_takes_its_new_domains(client, load_bundle, run_db):
    bundle = finder_bundle()
    load_bundle(bundle)
    scopes = run_db(_scopes)
    assert (DOMAIN, True, "FUEL_TYPE") in scopes and (DOMAIN, False, "BRAND") in scopes
    assert (DOMAIN, False, "FUEL_TYPE") not in scopes  # parents carry no fuel type
    load_bundle(bundle)
    assert run_db(_scopes) == scopes  # none added again
    moved = copy.deepcopy(next(p for p in bundle["products"] if p["id"] == "MLA900001"))
    moved["domain_id"] = "MLA-SPARK_PLUGS"
    del moved["parent_id"]  # a parent of its own domain now
    load_bundle({"products": [moved]})
    rows = run_db(lambda: list(ProductAttribute.select(AttributeScope.domain_id, AttributeScope.is_child,
                                                       ProductAttribute.attribute_id).join(AttributeScope)
                               .join_from(ProductAttribute, Product).where(Product.id == "MLA900001").tuples()))
    assert rows and all(row[:2] == ("MLA-SPARK_PLUGS", False) for row in rows)
    assert {row[2] for row in rows} == {a["id"] for a in moved["attributes"]}


def test_migration_gives_a_database_made_before_the_scopes_its_scopes(client, load_bundle, run_db):
    load_bundle(finder_bundle())
    answers, exported, shape = _answers(client), run_db(export_bundle)["products"], run_db(table_shape)

    def as_before_the_scopes():
        rows = db.execute_sql(
            "SELECT p.id, p.domain_id, p.parent_id IS NOT NULL, s.attribute_id, a.value_id, a.value_name,"
            " a.value_key, a.position FROM product_attribute a JOIN product p ON p.key = a.product_key"
            " JOIN attribute_scope s ON s.id = a.scope_id").fetchall()
        db.execute_sql("DROP TABLE product_attribute")
        db.execute_sql("DROP TABLE attribute_scope")
        for statement in BEFORE_SCOPES:
            db.execute_sql(statement)
        marks = ", ".join([db.param] * 8)
        db.cursor().executemany(f"INSERT INTO product_attribute VALUES ({marks})", rows)
        db.execute_sql("DELETE FROM finder_facet")  # the migration counts them again
        # 0005 makes the rows of that time, by the product's id, and 0016 gives them the product's key.
        db.execute_sql("DELETE FROM schema_migration WHERE name IN ('0005_attribute_scopes', '0016_attribute_keys')")
        return len(rows)

    rows = run_db(lambda: db.atomic()(as_before_the_scopes)())
    assert run_db(create_schema) == ["0005_attribute_scopes", "0016_attribute_keys"]

    assert _answers(client) == answers
    assert run_db(export_bundle)["products"] == exported
    assert run_db(ProductAttribute.select().count) == rows
    columns = run_db(lambda: {c.name for c in db.get_columns("product_attribute")})
    assert {"domain_id", "is_child"}.isdisjoint(columns) and "scope_id" in columns
    indexes = run_db(lambda: {tuple(i.columns) for i in db.get_indexes("product_attribute")})
    assert indexes == {("product_key", "attribute_id"), ("scope_id", "value_id", "product_key"),
                       ("scope_id", "value_key", "product_key")}
    assert not run_db(lambda: db.table_exists("product_attribute_before_scopes"))
    assert run_db(table_shape) == shape  # as a database made by this code


def test_postgresql_compares_the_attribute_rows_codes_byte_by_byte(run_db):
    if not run_db(is_postgres):
        pytest.skip("SQLite compares texts byte by byte (BINARY) unless told otherwise")
    collations = dict(run_db(lambda: db.execute_sql(
        "SELECT column_name, collation_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = 'product_attribute'").fetchall()))
    codes = ("attribute_id", "value_id", "value_key")
    assert {name: collations[name] for name in codes} == dict.fromkeys(codes, "C")
    assert collations["value_name"] is None  # names keep the database's collation
