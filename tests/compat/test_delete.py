"""Endpoints 16 to 18: deleting one, all, or by family; catalog compatibilities are kept."""
import pytest

from app.models import Item
from tests.compat.compat_data import OTHER_H, SELLER_H, compat, compatibility_rows, full_bundle, url
from tests.helpers import assert_error

IDS = {n: f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 8)}


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(compatibilities=[
        compat("MLA100", "MLA90001", id=IDS[1]),              # VW Gol 2010
        compat("MLA100", "MLA90002", id=IDS[2], source="CATALOGO"),
        compat("MLA100", "MLA90013", id=IDS[3]),              # Toyota Hilux 2010
        compat("MLA100", "MLA90025", id=IDS[4]),              # Ford 2010
        compat("MLA101", "MLA90001", id=IDS[5])]))


def products(run_db, item_id="MLA100"):
    return sorted(c.product_id for c in run_db(lambda: compatibility_rows(item_id)))


def vw_family(**extra):
    return {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "volkswagen"}], **extra}


def test_delete_one_answers_its_id_and_refreshes_the_item(client, run_db):
    response = client.delete(url(suffix=f"/{IDS[1]}"), headers=SELLER_H)
    assert response.status_code == 200 and response.get_json() == {"deleted_compatibilities": [IDS[1]]}
    assert products(run_db) == ["MLA90002", "MLA90013", "MLA90025"]
    assert run_db(lambda: Item.get_by_id("MLA100").compatibilities_count) == 3


def test_delete_one_of_the_catalog_is_403(client, run_db):
    assert_error(client.delete(url(suffix=f"/{IDS[2]}"), headers=SELLER_H), 403,
                 "catalog_compatibility_not_deletable")
    assert "MLA90002" in products(run_db)


def test_delete_one_that_does_not_exist_is_404(client):
    assert_error(client.delete(url(suffix="/nope"), headers=SELLER_H), 404, "compatibility_not_found")
    assert_error(client.delete(url(suffix=f"/{IDS[5]}"), headers=SELLER_H), 404, "compatibility_not_found")
    assert_error(client.delete(url("MLA999", f"/{IDS[1]}"), headers=SELLER_H), 404, "item_not_found")


def test_delete_all_skips_catalog_compatibilities(client, run_db):
    response = client.delete(url(), headers=SELLER_H)
    assert response.status_code == 200
    assert sorted(response.get_json()["deleted_compatibilities"]) == [IDS[1], IDS[3], IDS[4]]
    assert products(run_db) == ["MLA90002"] and products(run_db, "MLA101") == ["MLA90001"]


def test_delete_by_family_deletes_only_its_seller_compatibilities(client, run_db):
    response = client.delete(url(), json={"products_families": [vw_family()]}, headers=SELLER_H)
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"deleted_compatibilities": [IDS[1]]}
    assert products(run_db) == ["MLA90002", "MLA90013", "MLA90025"]


def test_delete_by_family_with_the_values_form(client, run_db):
    family = {"domain_id": "MLA-CARS_AND_VANS",
              "attributes": [{"id": "BRAND", "values": [{"id": "60297"}, {"name": "FORD"}]}]}
    response = client.delete(url(), json={"products_families": [family]}, headers=SELLER_H)
    assert sorted(response.get_json()["deleted_compatibilities"]) == [IDS[3], IDS[4]]


def test_delete_by_more_than_10_families_is_400(client):
    assert_error(client.delete(url(), json={"products_families": [vw_family()] * 11}, headers=SELLER_H),
                 400, "too_many_families")


def test_delete_by_a_family_above_the_product_limit_is_400(app, client, run_db):
    app.config["COMPAT_MAX_PRODUCTS_PER_REQUEST"] = 11
    assert_error(client.delete(url(), json={"products_families": [vw_family()]}, headers=SELLER_H),
                 400, "too_many_products")
    assert len(products(run_db)) == 4


@pytest.mark.parametrize("body, status, error", [
    ({"products_families": [{"domain_id": "MLA-CARS_AND_VANS"}]}, 400, "validation_error"),
    ({"products_families": [{"domain_id": "cars", "attributes": [{"id": "BRAND", "value_id": "1"}]}]},
     400, "validation_error"),
    ({"products_families": []}, 400, "validation_error"),
    ({"products_families": [vw_family(creation_source="DEFAULT")]}, 400, "validation_error"),
    ({"products_families": [{"domain_id": "MLA-TRUCKS", "attributes": [{"id": "BRAND", "value_id": "1"}]}]},
     404, "domain_not_found"),
    ({"products_families": [{"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_id": "0"}]}]},
     400, "family_without_products"),
])
def test_delete_by_family_errors(client, run_db, body, status, error):
    assert_error(client.delete(url(), json=body, headers=SELLER_H), status, error)
    assert len(products(run_db)) == 4


@pytest.mark.parametrize("path", ["", f"/{IDS[1]}"])
def test_deletes_need_a_token_and_the_seller(client, run_db, path):
    assert_error(client.delete(url(suffix=path)), 403, "invalid_token")
    assert_error(client.delete(url(suffix=path), headers=OTHER_H), 403, "forbidden")
    assert_error(client.delete(url("MLA999", path), headers=SELLER_H), 404, "item_not_found")
    assert len(products(run_db)) == 4
