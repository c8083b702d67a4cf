"""Requests as real integrators send them (issue 15): JSON bodies under any label, oversized chunked
bodies, tokens in the query string, creation_source as their code writes it, gzip, the spec's texts."""
import gzip
import json

import pytest

from tests.bundles import SELLER, TOKENS
from tests.clients.wire import post_chunked
from tests.compat.compat_data import SELLER_H, compat, compatibility_rows, seeded_bundle


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(seeded_bundle(compatibilities=[compat("MLA100", "MLA90001")]))


def created(response):
    body = response.get_json()
    assert response.status_code == 200, body
    return body["created_compatibilities_count"]


def sources(run_db, item_id="MLA101"):
    return run_db(lambda: sorted((c.product_id, c.creation_source) for c in compatibility_rows(item_id)))


ADD = json.dumps({"products": [{"id": "MLA90003", "creation_source": "DEFAULT"}]}).encode()


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/x-www-form-urlencoded"])
def test_json_body_is_read_whatever_its_content_type(client, content_type):
    headers = {**SELLER_H, **({"Content-Type": content_type} if content_type else {})}
    assert created(client.post("/items/MLA101/compatibilities", data=ADD, headers=headers)) == 1


def test_a_body_that_is_not_json_is_a_400_saying_so(client):
    response = client.post("/items/MLA101/compatibilities", data=b"products=MLA90003",
                           headers={**SELLER_H, "Content-Type": "text/plain"})
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == body["cause"][0]["code"] == "invalid_json", body


def test_nul_in_a_json_body_without_json_label_is_refused(client):
    response = client.post("/items/MLA101/compatibilities", data=ADD.replace(b"DEFAULT", b"DEF\\u0000"),
                           headers={**SELLER_H, "Content-Type": "text/plain"})
    assert response.status_code == 400 and response.get_json()["error"] == "invalid_characters"


def test_chunked_body_above_the_limit_is_413(live):
    big = json.dumps({"products": [{"id": "MLA90003", "creation_source": "DEFAULT", "note": "x" * 2 ** 21}]})
    status, body = post_chunked(live, "/items/MLA101/compatibilities", big.encode(), SELLER_H)
    assert (status, body["error"]) == (413, "request_entity_too_large"), body


def test_chunked_body_within_the_limit_is_read_whole(live):
    small = json.dumps({"products": [{"id": "MLA90003", "creation_source": "DEFAULT", "note": "y" * 400}]})
    status, body = post_chunked(live, "/items/MLA101/compatibilities", small.encode(), SELLER_H)
    assert (status, body) == (200, {"created_compatibilities_count": 1})


def test_nul_in_a_chunked_body_is_refused(live):
    # No Content-Length: the body is known from Transfer-Encoding alone (app/http/bodies.has_body).
    status, body = post_chunked(live, "/items/MLA101/compatibilities", ADD.replace(b"DEFAULT", b"DEF\\u0000"),
                                SELLER_H)
    assert (status, body["error"]) == (400, "invalid_characters"), body


def test_token_in_the_query_string_is_refused_saying_to_send_the_header(client):
    response = client.get("/items/MLA100", query_string={"access_token": TOKENS[SELLER]})
    body = response.get_json()
    assert response.status_code == 401 and body["error"] == "invalid_token"
    assert "query string" in body["message"] and "Authorization: Bearer" in body["message"]


def test_top_level_creation_source_is_the_default_of_elements_without_one(client, run_db):
    assert created(client.post("/items/MLA101/compatibilities", headers=SELLER_H, json={
        "creation_source": "AUTOMATION",
        "products": [{"id": "MLA90003"}, {"id": "MLA90004", "creation_source": "item_suggestions"}],
        "products_group": [{"ids": ["MLA90005"]}]})) == 3
    assert sources(run_db) == [("MLA90003", "AUTOMATION"), ("MLA90004", "ITEM_SUGGESTIONS"),
                               ("MLA90005", "AUTOMATION")]


def test_creation_source_in_any_letter_case_is_stored_upper_case(client, run_db):
    family = {"domain_id": "MLA-CARS_AND_VANS", "creation_source": "Automation",
              "attributes": [{"id": "MODEL", "value_name": "Gol"}, {"id": "VEHICLE_YEAR", "value_name": "2015"}]}
    assert created(client.post("/items/MLA101/compatibilities", headers=SELLER_H,
                               json={"products_families": [family]})) == 2
    assert {source for _, source in sources(run_db)} == {"AUTOMATION"}


def test_put_create_takes_a_top_level_creation_source_too(client, run_db):
    response = client.put("/items/MLA101/compatibilities", headers=SELLER_H, json={
        "create": {"creation_source": "new_vehicles", "products": [{"id": "MLA90003"}]}})
    assert response.status_code == 200, response.get_json()
    assert sources(run_db) == [("MLA90003", "NEW_VEHICLES")]


def test_creation_source_missing_everywhere_is_still_a_400_on_the_element(client):
    response = client.post("/items/MLA101/compatibilities", headers=SELLER_H,
                           json={"products": [{"id": "MLA90003"}]})
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "validation_error"
    assert [c["field"] for c in body["cause"]] == ["products.0.creation_source"]


def test_unknown_creation_source_is_a_400(client):
    response = client.post("/items/MLA101/compatibilities", headers=SELLER_H,
                           json={"creation_source": "ROBOT", "products": [{"id": "MLA90003"}]})
    assert response.status_code == 400 and response.get_json()["cause"][0]["field"] == "creation_source"


def test_large_answers_are_gzipped_when_accepted_and_small_ones_are_not(client):
    path = "/catalog/dumps/domains/MLA/compatibilities"
    plain = client.get(path)
    zipped = client.get(path, headers={"Accept-Encoding": "gzip, deflate"})
    assert len(plain.data) > 500 and plain.headers.get("Content-Encoding") is None
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert json.loads(gzip.decompress(zipped.data)) == plain.get_json()
    small = client.get("/currencies/ARS", headers={"Accept-Encoding": "gzip"})
    assert small.status_code == 200 and len(small.data) < 500
    assert small.headers.get("Content-Encoding") is None and small.get_json()["id"] == "ARS"


def test_endpoint_21_without_a_valid_token_says_invalid_access_token(client):
    for headers in ({}, {"Authorization": "Bearer nope"}):
        response = client.get("/compats-snapshots/orders/2000001", headers=headers)
        body = response.get_json()
        assert (response.status_code, body["error"], body["message"]) == (401, "invalid_token", "Invalid access token")


def test_endpoint_22_without_chart_domains_says_config_not_found(client):
    response = client.get("/catalog/charts/MLA/configurations/active_domains", headers=SELLER_H)
    body = response.get_json()
    assert (response.status_code, body["error"], body["message"]) == (404, "config_not_found", "Config not found")
