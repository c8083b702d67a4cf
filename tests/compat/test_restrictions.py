"""Restrictions: only endpoint 7's attributes and values for (vehicle domain, item domain),
at most 4 groups of at most 4 values, no repeated group."""
import pytest

from tests.compat.compat_data import FRONT, REAR, SELLER_H, compatibility_rows, full_bundle, position, product, url
from tests.helpers import assert_error


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle())


def add(client, restrictions, item_id="MLA100", pid="MLA90001"):
    return client.post(url(item_id), json={"products": [product(pid, restrictions=restrictions)]}, headers=SELLER_H)


def test_valid_restrictions_are_stored_with_the_catalog_names(client, run_db):
    response = add(client, position([{"value_id": FRONT["value_id"], "value_name": "whatever"}], [FRONT, REAR]))
    assert response.status_code == 200, response.get_json()
    stored = run_db(lambda: compatibility_rows("MLA100")[0].restrictions)
    assert stored == position([FRONT], [FRONT, REAR])


def test_attribute_not_offered_for_the_pair_is_400(client):
    restrictions = [{"attribute_id": "SIDE", "attribute_values": [{"values": [{"value_id": "1"}]}]}]
    error = assert_error(add(client, restrictions), 400, "restriction_not_allowed")
    assert "SIDE" in error["message"] and "restrictions/values" in error["message"]


def test_value_not_offered_is_400(client):
    error = assert_error(add(client, position([{"value_id": "999", "value_name": "Arriba"}])), 400,
                         "restriction_not_allowed")
    assert "999" in error["message"]


def test_restrictions_are_checked_for_the_family_domain(client):
    family = {"domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
              "attributes": [{"id": "MODEL", "value_name": "Gol"}],
              "restrictions": position([{"value_id": "999", "value_name": "x"}])}
    response = client.post(url(), json={"products_families": [family]}, headers=SELLER_H)
    assert_error(response, 400, "restriction_not_allowed")


def test_more_than_4_groups_is_400(client):
    assert_error(add(client, position([FRONT], [REAR], [FRONT, REAR], [REAR, FRONT], [FRONT])), 400,
                 "too_many_restriction_groups")


def test_more_than_4_values_in_a_group_is_400(client):
    assert_error(add(client, position([FRONT, REAR, FRONT, REAR, FRONT])), 400, "too_many_restriction_values")


@pytest.mark.parametrize("groups", [([FRONT], [FRONT]), ([FRONT, REAR], [REAR, FRONT])])
def test_repeated_group_is_400(client, groups):
    assert_error(add(client, position(*groups)), 400, "repeated_restriction_group")


def test_repeated_value_in_a_group_is_400(client):
    assert_error(add(client, position([FRONT, FRONT])), 400, "repeated_restriction_value")


def test_repeated_attribute_is_400(client):
    assert_error(add(client, position([FRONT]) + position([REAR])), 400, "repeated_restriction_attribute")


@pytest.mark.parametrize("codes", [{"attribute_code": "7"}, {"attribute_code": 7.5}, {"value_code": "7"}])
def test_echoed_codes_are_json_integers_or_400(client, codes):
    restrictions = position([FRONT])
    restrictions[0].update({k: v for k, v in codes.items() if k == "attribute_code"})
    restrictions[0]["attribute_values"][0]["values"][0].update({k: v for k, v in codes.items() if k == "value_code"})
    assert_error(add(client, restrictions), 400, "validation_error")
    restrictions = position([FRONT])
    restrictions[0]["attribute_code"] = 7
    restrictions[0]["attribute_values"][0]["values"][0]["value_code"] = 7
    assert add(client, restrictions).status_code == 200


def test_empty_group_is_400(client):
    restrictions = [{"attribute_id": "POSITION", "attribute_values": [{"values": []}]}]
    assert_error(add(client, restrictions), 400, "validation_error")


def test_item_domain_without_restriction_values_rejects_restrictions(client, load_bundle):
    # MLB brake pads have no endpoint 7 values.
    response = client.post(url("MLB301"), json={"products": [product("MLB90001", restrictions=position([FRONT]))]},
                           headers=SELLER_H)
    assert_error(response, 400, "restriction_not_allowed")
