"""Endpoint 9 and PUT create.item_to_copy: copying another item's compatibilities (rule 4)."""
import pytest

from app.models import RestrictionAttribute, RestrictionValue
from tests.bundles import OTHER_SELLER, item
from tests.compat.compat_data import (
    FRONT,
    OTHER_H,
    SELLER_H,
    compat,
    compatibility_rows,
    full_bundle,
    listing,
    position,
    product,
    url,
)
from tests.helpers import assert_error

SOURCE = [compat("MLA101", "MLA90001", note="Solo ABS", note_status="APPROVED", restrictions=position([FRONT])),
          compat("MLA101", "MLA90002", source="CATALOGO", creation_source="NEW_VEHICLES"),
          compat("MLA101", "MLA90003")]


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(
        compatibilities=SOURCE + [compat("MLA201", "MLA90004"), compat("MLB301", "MLB90001"), compat("MLA102")],
        items=[item("MLA201", "MLA1747", "MLA-BRAKE_PADS", seller=OTHER_SELLER),
               item("MLA106", "MLA1747", "MLA-BRAKE_PADS")]))


def copy(client, source, target="MLA100", extended=False, headers=SELLER_H):
    return client.post(url(target), json={"item_to_copy": {"item_id": source, "extended_information": extended}},
                       headers=headers)


def rows(run_db, item_id):
    return run_db(lambda: {c.product_id: c for c in compatibility_rows(item_id)})


def test_copy_into_an_item_without_compatibilities_copies_all(client, run_db):
    response = copy(client, "MLA101")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["created_compatibilities_count"] == 3 and body["item_id"] == "MLA101"
    copied = rows(run_db, "MLA100")
    assert sorted(copied) == ["MLA90001", "MLA90002", "MLA90003"]
    assert all(c.source == "SELLER" for c in copied.values())
    assert copied["MLA90002"].creation_source == "NEW_VEHICLES"
    assert copied["MLA90001"].note is None and copied["MLA90001"].restrictions is None


def test_extended_copy_brings_notes_and_restrictions_with_codes(client, run_db):
    body = copy(client, "MLA101", extended=True).get_json()
    copied = rows(run_db, "MLA100")
    assert copied["MLA90001"].note == "Solo ABS" and copied["MLA90001"].note_status == "PENDING"
    entry = next(p for p in body["products"] if p["catalog_product_id"] == "MLA90001")
    attribute = run_db(lambda: RestrictionAttribute.get(RestrictionAttribute.attribute_id == "POSITION"))
    value = run_db(lambda: RestrictionValue.get(RestrictionValue.value_id == FRONT["value_id"]))
    restriction = entry["restrictions"][0]
    assert restriction["attribute_code"] == attribute.id
    assert restriction["attribute_values"][0]["values"][0]["value_code"] == value.id


def test_copy_drops_notes_the_target_category_does_not_accept(client, run_db):
    client.delete(url("MLA103"), headers=SELLER_H)
    response = copy(client, "MLA101", target="MLA103", extended=True)
    assert response.status_code == 200, response.get_json()
    copied = rows(run_db, "MLA103")
    assert copied["MLA90001"].note is None and copied["MLA90001"].restrictions is None


def test_copy_into_an_item_with_compatibilities_is_400_pointing_to_put(client):
    client.post(url(), json={"products": [product("MLA90010")]}, headers=SELLER_H)
    error = assert_error(copy(client, "MLA101"), 400, "item_has_compatibilities")
    assert "create.item_to_copy" in error["message"]


def test_put_copy_adds_only_the_vehicles_the_target_lacks(client, run_db):
    client.post(url(), json={"products": [product("MLA90001", note="Mi nota")]}, headers=SELLER_H)
    response = client.put(url(), json={"create": {"item_to_copy": {"item_id": "MLA101", "extended_information": True}}},
                          headers=SELLER_H)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["create"]["item_to_copy"]["created_compatibilities_count"] == 2
    copied = rows(run_db, "MLA100")
    assert sorted(copied) == ["MLA90001", "MLA90002", "MLA90003"] and copied["MLA90001"].note == "Mi nota"


@pytest.mark.parametrize("source, status, code, in_message", [
    ("MLA201", 403, "forbidden", ""),
    ("MLB301", 400, "site_mismatch", ""),
    ("MLA106", 400, "copy_source_without_compatibilities", "HAS_COMPATIBILITIES"),
], ids=["another_seller", "another_site", "without_compatibilities"])
def test_copy_source_that_cannot_be_copied_is_refused(client, source, status, code, in_message):
    assert in_message in assert_error(copy(client, source), status, code)["message"]


def test_copy_source_above_the_per_item_limit_is_refused(app, client):
    app.config["COMPAT_MAX_PER_ITEM"] = 2
    assert_error(copy(client, "MLA101"), 400, "too_many_compatibilities")
    assert listing(client)["products"] == []


def test_unknown_copy_source_is_404(client):
    assert_error(copy(client, "MLA555"), 404, "item_not_found")


def test_copy_of_itself_is_400(client):
    assert_error(copy(client, "MLA101", target="MLA101"), 400, "invalid_copy_source")


def test_item_to_copy_is_sent_alone(client):
    response = client.post(url(), json={"item_to_copy": {"item_id": "MLA101"}, "products": [product("MLA90009")]},
                           headers=SELLER_H)
    assert_error(response, 400, "invalid_arguments")


def test_copy_needs_the_target_seller(client):
    assert_error(copy(client, "MLA101", headers=OTHER_H), 403, "forbidden")


def test_copy_of_a_universal_item_needs_a_category_that_allows_universal(client):
    assert_error(copy(client, "MLA102", target="MLA100"), 400, "universal_not_allowed")
