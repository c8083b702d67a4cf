"""The finder's counts an import updates from the products it changes (facet_changes) equal a
recount from every product, whichever values become or stop being popular; and a large product
load whose indexes are rebuilt (bundle/bulk.py) leaves tables and indexes as they were when it fails,
while a load that does not double the table keeps its indexes."""
import copy

import pytest

from app.db import db, is_postgres
from app.models import Domain, Product, ProductAttribute
from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
from app.services.bundle import BundleError, bulk
from app.services.finder import facet_changes, refresh_facets
from tests.finder.data import DOMAIN, finder_bundle


def stored_counts():
    return {model.__name__: sorted(model.select().tuples(), key=repr)
            for model in (FinderDomain, FinderFacet, FinderPairFacet)}


def recounted():
    refresh_facets(d for (d,) in Domain.select(Domain.id).tuples())
    return stored_counts()


def revision(bundle):
    """Products moved, renamed, stripped of attributes, re-parented, added and given new values."""
    other = next(d["id"] for d in bundle["domains"] if d["site_id"] == "MLA" and d["id"] != DOMAIN)
    changed = []
    for n, p in enumerate(q for q in bundle["products"] if q["domain_id"] == DOMAIN):
        p = copy.deepcopy(p)
        if n % 7 == 0:
            p["domain_id"] = other
        elif n % 7 == 1:
            p["attributes"] = p["attributes"][:2]  # loses attributes: its rows are replaced
        elif n % 7 == 2:
            p["attributes"][0] = {"id": "BRAND", "value_id": "61828", "value_name": "Citroën"}
        elif n % 7 == 3 and p.get("parent_id"):
            del p["parent_id"]  # a child becomes a parent
        elif n % 7 == 4 and not p.get("parent_id"):
            p["parent_id"] = "MLA700000" if p["id"] != "MLA700000" else None
        elif n % 7 == 5:
            p["attributes"].append({"id": "DOORS", "value_id": "5", "value_name": "5 puertas"})
        changed.append(p)
    added = [{"id": f"MLA99{n:04d}", "domain_id": DOMAIN, "parent_id": "MLA700000", "name": f"Nuevo {n}",
              "attributes": [{"id": "BRAND", "value_id": "61828", "value_name": "Citroën"},
                             {"id": "MODEL", "value_id": f"6300{n % 3}", "value_name": f"C{n % 3}"},
                             {"id": "VEHICLE_YEAR", "value_id": "2015", "value_name": None}]} for n in range(40)]
    return {"products": changed + added}


@pytest.mark.parametrize("popular_from", [1, 3, 10, 30, 1000])
def test_incremental_counts_equal_a_recount(load_bundle, run_db, monkeypatch, popular_from):
    from app.models import finder as stored

    monkeypatch.setattr(stored, "POPULAR_VALUE", popular_from)
    calls = []
    monkeypatch.setattr(facet_changes, "refresh_facets", lambda ids: calls.append(ids))  # no fallback taken
    bundle = finder_bundle()
    load_bundle(bundle)
    assert run_db(stored_counts) == run_db(recounted)
    second = revision(bundle)
    load_bundle(second)
    assert run_db(stored_counts) == run_db(recounted)
    # And back: values popular after the revision stop being popular again.
    load_bundle({"products": [p for p in bundle["products"] if p["id"] in {q["id"] for q in second["products"]}]})
    assert run_db(stored_counts) == run_db(recounted)
    assert calls == []


def test_counts_that_disagree_with_the_rows_are_recounted(load_bundle, run_db):
    load_bundle(finder_bundle())
    run_db(lambda: FinderFacet.delete().where(FinderFacet.domain_id == DOMAIN).execute())
    load_bundle(revision(finder_bundle()))  # the stored count would go negative: recounted instead
    assert run_db(stored_counts) == run_db(recounted)


def indexes():
    if is_postgres():
        sql = "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('product', 'product_attribute')"
        constraints = ("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                       " WHERE conrelid IN ('product'::regclass, 'product_attribute'::regclass)")
        return sorted(db.execute_sql(sql).fetchall()) + sorted(db.execute_sql(constraints).fetchall())
    return sorted(db.execute_sql("SELECT name, sql FROM sqlite_master WHERE type = 'index'"
                                 " AND tbl_name IN ('product', 'product_attribute')").fetchall())


def table_rows():
    return (sorted(Product.select().tuples()), sorted(ProductAttribute.select().tuples(), key=repr))


def test_rebuilt_indexes_survive_a_load_and_a_failed_one(load_bundle, run_db, monkeypatch):
    monkeypatch.setattr(bulk, "MIN_ROWS", 1)  # every load rebuilds (on PostgreSQL) when it doubles the table
    load_bundle(finder_bundle())
    if run_db(is_postgres):  # its estimate of a table's rows is kept by ANALYZE
        run_db(lambda: db.execute_sql('ANALYZE "product", "product_attribute"'))
    before, rows = run_db(indexes), run_db(table_rows)
    assert run_db(stored_counts) == run_db(recounted)

    def fail(planned):
        raise BundleError(["products: failed after the rows were written"])

    monkeypatch.setattr(facet_changes, "apply", fail)
    rebuilt = []
    monkeypatch.setattr(bulk, "_secondary_indexes", lambda table, read=bulk._secondary_indexes: rebuilt.append(table)
                        or read(table))
    more = [{"id": f"MLA98{n:04d}", "domain_id": DOMAIN, "parent_id": "MLA700000", "name": f"X {n}",
             "attributes": [{"id": "BRAND", "value_id": "60249", "value_name": "Volkswagen"}]} for n in range(500)]
    with pytest.raises(BundleError):
        load_bundle({"products": more})
    assert run_db(indexes) == before
    assert run_db(table_rows) == rows
    assert rebuilt == ["product", "product_attribute"]
    monkeypatch.undo()
    monkeypatch.setattr(bulk, "MIN_ROWS", 1)
    load_bundle({"products": more})
    assert run_db(indexes) == before
    assert run_db(lambda: ProductAttribute.select().count()) == len(rows[1]) + 500
    assert run_db(stored_counts) == run_db(recounted)


def test_a_load_that_does_not_double_the_table_keeps_its_indexes(load_bundle, run_db, monkeypatch):
    monkeypatch.setattr(bulk, "MIN_ROWS", 1)
    load_bundle(finder_bundle())
    if run_db(is_postgres):  # its estimate of a table's rows is kept by ANALYZE
        run_db(lambda: db.execute_sql('ANALYZE "product", "product_attribute"'))
    before, stored = run_db(indexes), run_db(lambda: Product.select().count())
    rebuilt = []
    monkeypatch.setattr(bulk, "_secondary_indexes", lambda table, read=bulk._secondary_indexes: rebuilt.append(table)
                        or read(table))
    fewer = [{"id": f"MLA97{n:04d}", "domain_id": DOMAIN, "parent_id": "MLA700000", "name": f"Y {n}",
              "attributes": [{"id": "BRAND", "value_id": "60249", "value_name": "Volkswagen"}]}
             for n in range(stored // 4)]
    load_bundle({"products": fewer})
    assert rebuilt == []
    assert run_db(indexes) == before
    assert run_db(lambda: Product.select().count()) == stored + len(fewer)
