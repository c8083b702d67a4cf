"""A large COPY of compatibilities on PostgreSQL checks its foreign keys by one locking statement
each instead of row by row (bundle/bulk.py, `references_locked`): the same rows as the checked
path, a missing reference fails the import, and the row-by-row checks are back on after the COPY."""
import pytest
from peewee import IntegrityError

from app.db import db, is_postgres, write_transaction
from app.models import Compatibility, Item, Product
from app.services.bundle import bulk, import_bundle
from app.services.bundle.compatibilities import COMPATIBILITY_FIELDS
from app.services.bundle.sql import insert_rows
from tests.bundle_data import full_bundle
from tests.bundles import vehicle_products
from tests.compat.compat_data import compatibility_rows
from tests.helpers import recorded_statements


def stored():
    return sorted(((c.item_id, c.product_id, c.universal) for c in compatibility_rows()), key=repr)


def large_bundle():
    """Every child vehicle with two brake-pad items: more than one compatibility per product."""
    bundle = full_bundle()
    children = [p["id"] for p in vehicle_products() if p.get("parent_id")]
    bundle["compatibilities"] = [{"item_id": item_id, "product_id": product_id}
                                 for item_id in ("MLA100", "MLA101") for product_id in children]
    return bundle


@pytest.mark.parametrize("min_rows", [1, 10**9], ids=["set-checked", "row-checked"])
def test_a_large_load_stores_the_same_rows_either_way(load_bundle, run_db, monkeypatch, min_rows):
    monkeypatch.setattr(bulk, "MIN_ROWS", min_rows)
    bundle = large_bundle()
    statements = run_db(recorded_load, bundle)
    assert len(run_db(stored)) == len(bundle["compatibilities"])
    switched = [s for s in statements if "session_replication_role" in s and s.startswith("SET")]
    if run_db(is_postgres) and min_rows == 1:
        assert switched == ["SET LOCAL session_replication_role = replica",
                            "SET LOCAL session_replication_role = origin"]
        assert run_db(lambda: db.execute_sql("SHOW session_replication_role").fetchone()[0]) == "origin"
    else:
        assert switched == []
    expected = {("MLA100", p["id"]) for p in vehicle_products() if p.get("parent_id")}
    assert {(i, p) for i, p, _ in run_db(stored) if i == "MLA100"} == expected


def recorded_load(bundle):
    with recorded_statements() as seen:
        import_bundle(bundle)
    return seen


NO_SUCH_KEY = 999_999_999


def _new_rows(item_key, product_key):
    return [("00000000-0000-7000-8000-000000000001", item_key, product_key, False, "SELLER", "DEFAULT", None, None,
             None, "2026-01-01 00:00:00")]


def _keys(product_id):
    """(the key of the item MLA103, the key of the product)."""
    return Item.get_by_id("MLA103").key, Product.get_by_id(product_id).key


def bulk_insert(rows):
    insert_rows(Compatibility, COMPATIBILITY_FIELDS, rows)


def test_a_reference_missing_at_copy_time_fails_and_writes_nothing(load_bundle, run_db, monkeypatch):
    if not run_db(is_postgres):
        pytest.skip("PostgreSQL's foreign key triggers")
    monkeypatch.setattr(bulk, "MIN_ROWS", 1)
    load_bundle(full_bundle())
    before = run_db(stored)
    child = next(p["id"] for p in vehicle_products() if p.get("parent_id"))
    item_key, product_key = run_db(_keys, child)

    def copy(rows):
        with write_transaction():
            with bulk.references_locked(Compatibility, COMPATIBILITY_FIELDS, rows):
                bulk_insert(rows)

    with pytest.raises(IntegrityError, match=f'item_key .{NO_SUCH_KEY}. not present in table "item"'):
        run_db(copy, _new_rows(NO_SUCH_KEY, product_key))
    with pytest.raises(IntegrityError, match=f'product_key .{NO_SUCH_KEY}. not present in table "product"'):
        run_db(copy, _new_rows(item_key, NO_SUCH_KEY))
    assert run_db(stored) == before

    def row_checks_back_on():
        with write_transaction():
            with bulk.references_locked(Compatibility, COMPATIBILITY_FIELDS, _new_rows(item_key, product_key)):
                bulk_insert(_new_rows(item_key, product_key))
            # After the block the constraint's own trigger checks again, in the same transaction.
            Compatibility.insert(id="00000000-0000-7000-8000-999999999999", item=item_key,
                                 product=NO_SUCH_KEY).execute()

    with pytest.raises(IntegrityError, match="foreign key"):
        run_db(row_checks_back_on)
    assert run_db(stored) == before


def test_a_role_that_may_not_skip_the_triggers_keeps_the_row_checks(load_bundle, run_db, monkeypatch):
    monkeypatch.setattr(bulk, "MIN_ROWS", 1)
    monkeypatch.setattr(bulk, "_may_skip_row_triggers", lambda: False)
    bundle = large_bundle()
    statements = run_db(recorded_load, bundle)
    assert not [s for s in statements if "session_replication_role" in s]
    assert len(run_db(stored)) == len(bundle["compatibilities"])
