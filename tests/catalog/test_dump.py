"""Endpoint 1 (the public domain dump) and endpoint 7 (restriction values of a domain pair)."""
import pytest

from tests.bundles import POSITION_VALUES, SELLER, TOKENS, base_bundle
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])


def dump_bundle():
    bundle = base_bundle()
    bundle["sites"].append({"id": "MLU", "name": "Uruguay", "default_currency_id": "UYU", "language": "es"})
    bundle["currencies"].append({"id": "UYU", "description": "Peso uruguayo", "symbol": "$", "decimal_places": 2})
    bundle["domains"] += [{"id": "MLA-WIPERS", "site_id": "MLA", "name": "Escobillas"},
                          {"id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Motos"}]
    bundle["categories"] += [{"id": "MLA3000", "site_id": "MLA", "name": "Escobillas traseras"},
                             {"id": "MLA2000", "site_id": "MLA", "name": "Escobillas delanteras"}]
    rule = {"required": False, "note_status": "DISABLED", "restrictions_status": "ENABLED",
            "universal_status": "ENABLED"}
    bundle["domain_compatibilities"].append({"domain_id": "MLA-WIPERS", "main": False, "compatibilities": [
        {"compatible_domain_id": "MLA-MOTORCYCLES", "type": "EXTENSION", "required": False, "restrictions": [],
         "categories": [{"id": "MLA3000", **rule}]},
        {"compatible_domain_id": "MLA-CARS_AND_VANS", "type": "EXTENSION", "required": True, "restrictions": [],
         "categories": [{"id": "MLA3000", **rule}, {"id": "MLA2000", **rule, "required": True}]}]})
    return bundle


@pytest.fixture
def loaded(load_bundle):
    load_bundle(dump_bundle())


def test_dump_is_public_and_answers_the_entry_shape(client, loaded):
    response = client.get("/catalog/dumps/domains/MLA/compatibilities")
    assert response.status_code == 200
    entries = {e["domain_id"]: e for e in response.get_json()}
    assert entries["MLA-BRAKE_PADS"] == {
        "domain_id": "MLA-BRAKE_PADS", "main": False, "compatibilities": [{
            "compatible_domain_id": "MLA-CARS_AND_VANS", "type": "EXTENSION", "required": True,
            "restrictions": [], "categories": [{
                "id": "MLA1747", "required": True, "note_status": "ENABLED", "restrictions_status": "ENABLED",
                "universal_status": "DISABLED"}]}]}
    assert entries["MLA-CARS_AND_VANS"] == {"domain_id": "MLA-CARS_AND_VANS", "main": True, "compatibilities": []}
    assert entries["MLA-CAR_FLOOR_MATS"]["compatibilities"][0]["categories"][0]["universal_status"] == "ENABLED"


def test_dump_lists_only_the_sites_domains(client, loaded):
    ids = [e["domain_id"] for e in client.get("/catalog/dumps/domains/MLA/compatibilities").get_json()]
    assert sorted(ids) == ["MLA-BRAKE_PADS", "MLA-CARS_AND_VANS", "MLA-CAR_FLOOR_MATS", "MLA-SPARK_PLUGS",
                           "MLA-WIPERS"]
    mlb = client.get("/catalog/dumps/domains/MLB/compatibilities").get_json()
    assert [e["domain_id"] for e in mlb] == ["MLB-BRAKE_PADS"]


def test_dump_keeps_the_stored_order_of_pairs_and_categories(client, loaded):
    entries = {e["domain_id"]: e for e in client.get("/catalog/dumps/domains/MLA/compatibilities").get_json()}
    pairs = entries["MLA-WIPERS"]["compatibilities"]
    assert [p["compatible_domain_id"] for p in pairs] == ["MLA-MOTORCYCLES", "MLA-CARS_AND_VANS"]
    assert [(c["id"], c["required"]) for c in pairs[1]["categories"]] == [("MLA3000", False), ("MLA2000", True)]
    assert pairs[1]["categories"][1]["note_status"] == "DISABLED"


def test_dump_of_a_site_without_rules_is_an_empty_list(client, loaded):
    response = client.get("/catalog/dumps/domains/MLU/compatibilities")
    assert response.status_code == 200 and response.get_json() == []


def test_dump_of_an_unknown_site_answers_404(client, loaded):
    assert_error(client.get("/catalog/dumps/domains/MXX/compatibilities"), 404, "site_not_found")


# --- endpoint 7 -------------------------------------------------------------------------

VALUES_URL = "/catalog_compatibilities/restrictions/values"


def test_restriction_values_of_a_pair(client, loaded):
    response = client.get(VALUES_URL, query_string={"main_domain_id": "MLA-CARS_AND_VANS",
                                                    "secondary_domain_id": "MLA-BRAKE_PADS"}, headers=AUTH)
    assert response.status_code == 200
    assert response.get_json() == {"attributes_values": [{"attribute_id": "POSITION", "values": POSITION_VALUES}]}


def test_restriction_values_of_a_pair_without_values_is_empty(client, loaded):
    response = client.get(VALUES_URL, query_string={"main_domain_id": "MLA-CARS_AND_VANS",
                                                    "secondary_domain_id": "MLA-SPARK_PLUGS"}, headers=AUTH)
    assert response.status_code == 200 and response.get_json() == {"attributes_values": []}


def test_restriction_values_are_per_ordered_pair(client, loaded):
    response = client.get(VALUES_URL, query_string={"main_domain_id": "MLA-BRAKE_PADS",
                                                    "secondary_domain_id": "MLA-CARS_AND_VANS"}, headers=AUTH)
    assert response.get_json() == {"attributes_values": []}


@pytest.mark.parametrize("missing", ["main_domain_id", "secondary_domain_id"])
def test_restriction_values_require_both_parameters(client, loaded, missing):
    query = {"main_domain_id": "MLA-CARS_AND_VANS", "secondary_domain_id": "MLA-BRAKE_PADS"}
    del query[missing]
    body = assert_error(client.get(VALUES_URL, query_string=query, headers=AUTH), 400, "validation_error")
    assert [c["field"] for c in body["cause"]] == [missing]


@pytest.mark.parametrize("query", [{"main_domain_id": "MLA-NOPE", "secondary_domain_id": "MLA-BRAKE_PADS"},
                                   {"main_domain_id": "MLA-CARS_AND_VANS", "secondary_domain_id": "MLA-NOPE"}])
def test_restriction_values_of_an_unknown_domain_answer_404(client, loaded, query):
    body = assert_error(client.get(VALUES_URL, query_string=query, headers=AUTH), 404, "domain_not_found")
    assert "MLA-NOPE" in body["message"]


def test_restriction_values_need_a_token(client, loaded):
    query = {"main_domain_id": "MLA-CARS_AND_VANS", "secondary_domain_id": "MLA-BRAKE_PADS"}
    assert_error(client.get(VALUES_URL, query_string=query), 401, "invalid_token")
