"""The finder's counts right after an import, the bundle's attribute fields (import, defaults,
export), the migration of a database made before the finder, and value names that ignore case and
accents."""
import copy
import importlib

import pytest

from app.db import db
from app.models import Domain, ProductAttribute
from app.models.finder import FinderFacet, FinderPairFacet
from app.services.bundle import BundleError, export_bundle
from tests.finder.data import AUTH, DOMAIN, expected_top_values, finder_bundle

SEARCH = "/catalog_compatibilities/products_search/chunks"


def top(client, attribute_id, known=()):
    return client.post(f"/catalog_domains/{DOMAIN}/attributes/{attribute_id}/top_values", headers=AUTH,
                       json={"known_attributes": list(known), "limit": 1000}).get_json()


def total(client, known=()):
    body = client.post(SEARCH, headers=AUTH, json={"domain_id": DOMAIN, "site_id": "MLA",
                                                   "known_attributes": list(known)}).get_json()
    return body["paging"]["total"]


@pytest.mark.parametrize("popular_from", [1, 1000])
def test_counts_are_exact_right_after_each_import(client, load_bundle, monkeypatch, popular_from):
    from app.models import finder as stored

    monkeypatch.setattr(stored, "POPULAR_VALUE", popular_from)
    bundle = finder_bundle()
    load_bundle(bundle)
    vw = [{"id": "BRAND", "value_ids": ["60249"]}]
    before = total(client, vw)
    # A second import: one Volkswagen becomes a Citroën, a new Volkswagen appears, a parent gains a child.
    moved = copy.deepcopy(next(p for p in bundle["products"] if p["id"] == "MLA900001"))
    moved["attributes"][0] = {"id": "BRAND", "value_id": "61828", "value_name": "Citroën"}
    added = copy.deepcopy(moved)
    added.update(id="MLA990000", attributes=[{"id": "BRAND", "value_id": "60249", "value_name": "Volkswagen"},
                                             {"id": "MODEL", "value_id": "62999", "value_name": "Polo"}])
    load_bundle({"products": [moved, added]})
    after = copy.deepcopy(bundle)
    after["products"] = [moved if p["id"] == moved["id"] else p for p in after["products"]] + [added]
    assert total(client, vw) == before  # one left, one came
    assert top(client, "BRAND") == expected_top_values(after, "BRAND", limit=1000)
    assert top(client, "MODEL", vw) == expected_top_values(after, "MODEL", vw, limit=1000)
    assert {"id": "62999", "name": "Polo", "metric": 1} in top(client, "MODEL", vw)
    citroen = [{"id": "BRAND", "value_ids": ["61828"]}]
    assert top(client, "MODEL", citroen) == expected_top_values(after, "MODEL", citroen, limit=1000)


def test_a_failed_import_leaves_the_counts_as_they_were(client, load_bundle):
    load_bundle(finder_bundle())
    before = top(client, "BRAND")
    bad = {"products": [{"id": "MLA990001", "domain_id": DOMAIN, "name": "X", "parent_id": "MLA700000",
                         "attributes": [{"id": "BRAND", "value_id": "60249", "value_name": "Volkswagen"}]},
                        {"id": "MLA990002", "domain_id": "MLA-NOPE", "name": "Y", "attributes": []}]}
    with pytest.raises(BundleError):
        load_bundle(bad)
    assert top(client, "BRAND") == before


def test_export_writes_the_attribute_fields_back(load_bundle, run_db):
    load_bundle(finder_bundle())
    domain = next(d for d in run_db(export_bundle)["domains"] if d["id"] == DOMAIN)
    assert domain["attributes"][0] == {"id": "BRAND", "name": "Marca", "value_type": "list",
                                       "hierarchy": "PARENT_PK", "relevance": 1}
    assert domain["attributes"][-1] == {"id": "DOORS", "name": "Puertas", "value_type": "list",
                                        "hierarchy": "CHILD_PK", "relevance": 3}


@pytest.mark.parametrize("field, value", [("hierarchy", "GRANDPARENT"), ("relevance", 4), ("relevance", "1")])
def test_bundle_rejects_invalid_attribute_fields(load_bundle, field, value):
    bundle = finder_bundle()
    bundle["domains"][0]["attributes"][0][field] = value
    with pytest.raises(BundleError) as error:
        load_bundle(bundle)
    assert f"domains[0].attributes[0].{field}" in str(error.value)


def test_migration_upgrades_a_database_made_before_the_finder(client, load_bundle, run_db):
    load_bundle(finder_bundle())
    expected_brands = top(client, "BRAND")

    def as_before_the_finder():
        for model in (FinderFacet, FinderPairFacet):
            model.delete().execute()
        for domain in Domain.select():
            Domain.update(attributes=[{"id": a["id"], "name": a["name"]} for a in domain.attributes]).where(
                Domain.id == domain.id).execute()
        ProductAttribute.update(value_key=ProductAttribute.value_name).execute()  # no folding at all

    run_db(as_before_the_finder)
    for migration in ("0003_finder", "0005_attribute_scopes"):  # 0005 makes the counts
        run_db(importlib.import_module(f"app.migrations.{migration}").up, None, db)
    assert top(client, "BRAND") == expected_brands
    attributes = client.get(f"/catalog_domains/{DOMAIN}", headers=AUTH).get_json()["attributes"]
    assert attributes[-1] == {"id": "DOORS", "name": "Puertas", "value_type": "list", "hierarchy": "CHILD_PK",
                              "relevance": 3}
    assert _family_count(client, "citroen") == 16


def _family_count(client, brand_name):
    response = client.post("/catalog_compatibilities/products_search/count_family_products", headers=AUTH,
                           json={"domain_id": DOMAIN, "attributes": [{"id": "BRAND", "value_name": brand_name}]})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["count"]


@pytest.mark.parametrize("name", ["Citroën", "citroen", "CITROEN", " citroën ", "CITROËN"])
def test_family_value_name_ignores_case_and_accents(client, load_bundle, name):
    load_bundle(finder_bundle())
    assert _family_count(client, name) == 16


def test_family_write_by_value_name_without_accents(client, load_bundle):
    load_bundle(finder_bundle())
    response = client.post("/items/MLA100/compatibilities", headers=AUTH, json={"products_families": [{
        "domain_id": DOMAIN, "creation_source": "DEFAULT",
        "attributes": [{"id": "BRAND", "value_name": "citroen"}, {"id": "MODEL", "value_name": "c3"}]}]})
    assert response.status_code == 200 and response.get_json()["created_compatibilities_count"] == 8


def test_reimporting_the_same_bundle_keeps_the_counts(client, load_bundle, run_db):
    bundle = finder_bundle()
    load_bundle(bundle)
    before = (top(client, "BRAND"), run_db(lambda: FinderPairFacet.select().count()))
    load_bundle(bundle)
    assert (top(client, "BRAND"), run_db(lambda: FinderPairFacet.select().count())) == before
