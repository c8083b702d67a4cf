"""Universal compatibility (rule 3 and the "Universal compatibility" error table)."""
import pytest

from app.models import Item
from tests.compat.compat_data import OTHER_H, SELLER_H, compat, compatibility_rows, full_bundle, listing, product, url
from tests.helpers import assert_error

SPEC_MESSAGE = "check details to satisfy validations"
UNIVERSAL = {"universal": True, "products": [], "products_group": [], "products_families": []}


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(compatibilities=[compat("MLA101", "MLA90001")]))


def post(client, body, item_id="MLA102", headers=SELLER_H):
    return client.post(url(item_id), json=body, headers=headers)


def test_universal_is_one_compatibility_counted_once(client, run_db):
    response = post(client, UNIVERSAL)
    assert response.status_code == 200 and response.get_json() == {"created_compatibilities_count": 1}
    again = post(client, {"universal": True})
    assert again.status_code == 200 and again.get_json() == {"created_compatibilities_count": 0}
    rows = run_db(lambda: compatibility_rows("MLA102"))
    assert len(rows) == 1 and rows[0].universal and rows[0].product_id is None
    item = run_db(lambda: Item.get_by_id("MLA102"))
    assert item.is_universal and item.compatibilities_count == 1


def test_list_of_a_universal_item_has_no_products_and_the_domains(client):
    post(client, UNIVERSAL)
    body = listing(client, "MLA102")
    assert body["products"] == [] and body["universal"]["domain_ids"] == ["MLA-CARS_AND_VANS"]
    assert "universal" not in listing(client, "MLA100")


@pytest.mark.parametrize("body", [
    {"universal": True, "products": [product("MLA90001")]},
    {"universal": True, "products_group": [{"ids": ["MLA90001"], "creation_source": "DEFAULT"}]},
    {"universal": True, "products_families": [{"domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
                                               "attributes": [{"id": "BRAND", "value_id": "60249"}]}]},
])
def test_universal_with_products_is_400_with_the_spec_message(client, body):
    error = assert_error(post(client, body), 400, "invalid_arguments")
    assert SPEC_MESSAGE in error["message"] and error["cause"]


@pytest.mark.parametrize("body", [{}, {"universal": False}, {"products": [], "products_families": []}])
def test_nothing_to_add_is_400_with_the_spec_message(client, body):
    error = assert_error(post(client, body), 400, "invalid_arguments")
    assert "at least one of products" in error["message"]


def test_universal_rejected_when_item_has_compatibilities(client):
    assert post(client, {"products": [product("MLA90001")]}).status_code == 200
    error = assert_error(post(client, UNIVERSAL), 400, "item_has_compatibilities")
    assert "removed" in error["message"]


def test_universal_rejected_where_the_category_disables_it(client):
    error = assert_error(post(client, UNIVERSAL, item_id="MLA100"), 400, "universal_not_allowed")
    assert "MLA1747" in error["message"]


def test_universal_rejected_when_no_compatibility_is_configured_for_the_category(client):
    error = assert_error(post(client, UNIVERSAL, item_id="MLA104"), 400, "category_not_configured")
    assert "MLA9999" in error["message"]


def test_specific_compatibilities_rejected_while_universal(client):
    post(client, UNIVERSAL)
    error = assert_error(post(client, {"products": [product("MLA90001")]}), 400, "item_is_universal")
    assert "removed" in error["message"]


def test_universal_needs_a_valid_token_and_the_seller(client):
    assert_error(client.post(url("MLA102"), json=UNIVERSAL), 403, "invalid_token")
    assert_error(post(client, UNIVERSAL, headers=OTHER_H), 403, "forbidden")


def test_universal_on_unknown_item_is_404(client):
    assert_error(post(client, UNIVERSAL, item_id="MLA777"), 404, "item_not_found")


def test_universal_is_removed_by_delete_all(client, run_db):
    post(client, UNIVERSAL)
    response = client.delete(url("MLA102"), headers=SELLER_H)
    assert response.status_code == 200 and len(response.get_json()["deleted_compatibilities"]) == 1
    assert run_db(lambda: Item.get_by_id("MLA102").is_universal) is False
    assert post(client, {"products": [product("MLA90001")]}).status_code == 200


def test_universal_is_removed_by_its_id(client, run_db):
    post(client, UNIVERSAL)
    universal_id = listing(client, "MLA102")["universal"]["id"]
    assert universal_id == run_db(lambda: compatibility_rows("MLA102")[0].id)
    response = client.delete(url("MLA102", f"/{universal_id}"), headers=SELLER_H)
    assert response.status_code == 200 and response.get_json() == {"deleted_compatibilities": [universal_id]}
    assert listing(client, "MLA102") == {"products": [], "catalog_compatibilities_count": 0}


def test_put_create_universal_sets_it_and_delete_universal_removes_it(client):
    response = client.put(url("MLA102"), json={"create": {"universal": True}}, headers=SELLER_H)
    assert response.status_code == 200 and response.get_json() == {"create": {"universal": True}}
    assert "universal" in listing(client, "MLA102")
    swap = client.put(url("MLA102"), json={"delete": {"universal": True},
                                          "create": {"products": [product("MLA90001")]}}, headers=SELLER_H)
    assert swap.status_code == 200, swap.get_json()
    assert swap.get_json()["delete"]["universal"] is True and swap.get_json()["create"]["universal"] is False
    body = listing(client, "MLA102")
    assert "universal" not in body and [p["catalog_product_id"] for p in body["products"]] == ["MLA90001"]


def test_put_create_universal_rejected_when_item_has_compatibilities(client):
    client.post(url("MLA102"), json={"products": [product("MLA90001")]}, headers=SELLER_H)
    response = client.put(url("MLA102"), json={"create": {"universal": True}}, headers=SELLER_H)
    assert_error(response, 400, "item_has_compatibilities")
