"""Endpoint 3 (read an item) and endpoints 4 and 5 (search a seller's items)."""
import pytest

from tests.bundles import MLB_SELLER, OTHER_SELLER, SELLER, TOKENS
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])
HAS_COMPATIBILITIES = {"id": "HAS_COMPATIBILITIES", "name": "Tiene compatibilidades", "value_id": "242085",
                       "value_name": "Sí", "values": [{"id": "242085", "name": "Sí", "struct": None}],
                       "value_type": "boolean"}


def get_item(client, item_id, token=TOKENS[SELLER]):
    response = client.get(f"/items/{item_id}", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


# --- endpoint 3 -------------------------------------------------------------------------

def test_item_answers_the_spec_fields(client, reads_loaded):
    body = get_item(client, "MLA100")
    assert {k: body[k] for k in ("id", "site_id", "title", "seller_id", "category_id", "domain_id",
                                 "official_store_id", "warranty", "catalog_product_id", "parent_item_id",
                                 "deal_ids", "automatic_relist", "health", "catalog_listing", "status")} == {
        "id": "MLA100", "site_id": "MLA", "title": "Pastillas de freno delanteras Gol", "seller_id": SELLER,
        "category_id": "MLA1747", "domain_id": "MLA-BRAKE_PADS", "official_store_id": None,
        "warranty": "6 meses", "catalog_product_id": None, "parent_item_id": None, "deal_ids": [],
        "automatic_relist": False, "health": 0.85, "catalog_listing": False, "status": "active"}


def test_item_dates_are_iso_8601_utc_with_z(client, reads_loaded):
    body = get_item(client, "MLA100")
    assert body["date_created"] == "2026-01-10T12:00:00Z"
    assert body["last_updated"] == "2026-01-11T08:30:00Z"


def test_item_with_compatibilities_carries_has_compatibilities_after_its_own_attributes(client, reads_loaded):
    attributes = get_item(client, "MLA100")["attributes"]
    assert attributes == [{"id": "BRAND", "name": "Marca", "value_id": None, "value_name": "Frasle",
                           "values": [{"id": None, "name": "Frasle", "struct": None}], "value_type": "string"},
                          HAS_COMPATIBILITIES]


def test_universal_setting_counts_for_has_compatibilities(client, reads_loaded):
    assert HAS_COMPATIBILITIES in get_item(client, "MLA102")["attributes"]


def test_item_without_compatibilities_has_no_has_compatibilities_even_if_stored(client, reads_loaded):
    body = get_item(client, "MLA101")
    assert [a["id"] for a in body["attributes"]] == []


def test_has_compatibilities_is_named_in_the_sites_language(client, reads_loaded):
    attribute = get_item(client, "MLB300", TOKENS[MLB_SELLER])["attributes"][-1]
    assert attribute["id"] == "HAS_COMPATIBILITIES" and attribute["value_type"] == "boolean"
    assert attribute["value_name"] == "Sim"


def test_item_tags_follow_the_compatibility_state(client, reads_loaded):
    assert get_item(client, "MLA101")["tags"] == ["incomplete_compatibilities", "pending_compatibilities"]
    assert get_item(client, "MLA100")["tags"] == ["pending_compatibilities"]
    assert get_item(client, "MLA103")["tags"] == []  # an exception lifts the incomplete tag
    assert get_item(client, "MLA102")["tags"] == []  # category does not require compatibilities
    assert get_item(client, "MLA104")["tags"] == []  # paused items are not incomplete


def test_any_valid_token_reads_an_item(client, reads_loaded):
    assert get_item(client, "MLA100", TOKENS[OTHER_SELLER])["id"] == "MLA100"


def test_unknown_item_answers_404(client, reads_loaded):
    assert_error(client.get("/items/MLA999", headers=AUTH), 404, "item_not_found")


def test_item_read_needs_a_token(client, reads_loaded):
    assert_error(client.get("/items/MLA100"), 401, "invalid_token")
    assert_error(client.get("/items/MLA100", headers=bearer("nope")), 401, "invalid_token")


# --- endpoints 4 and 5 ------------------------------------------------------------------

def search(client, query, seller=SELLER, token=None):
    return client.get(f"/users/{seller}/items/search", query_string=query,
                      headers=bearer(token or TOKENS[seller]))


def results(client, query, seller=SELLER):
    response = search(client, query, seller)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_search_incomplete_lists_items_that_must_report_compatibilities(client, reads_loaded):
    body = results(client, {"tags": "incomplete_compatibilities"})
    assert body["results"] == ["MLA101", "MLA105"]
    assert body["seller_id"] == str(SELLER) and body["query"] is None
    assert body["paging"] == {"total": 2, "offset": 0, "limit": 50}
    assert body["filters"] == {"tags": ["incomplete_compatibilities"]}


def test_search_pending_lists_items_with_suggestions(client, reads_loaded):
    assert results(client, {"tags": "pending_compatibilities"})["results"] == ["MLA100", "MLA101"]


def test_search_tags_combine(client, reads_loaded):
    body = results(client, {"tags": "incomplete_compatibilities,pending_compatibilities"})
    assert body["results"] == ["MLA101"]


def test_search_active_with_compatibilities_lists_copy_sources(client, reads_loaded):
    body = results(client, {"status": "active", "has_compatibilities": "true"})
    assert body["results"] == ["MLA100", "MLA102"]  # MLA106 is paused, MLA200 another seller's


def test_search_without_compatibilities(client, reads_loaded):
    assert results(client, {"status": "active", "has_compatibilities": "false"})["results"] == [
        "MLA101", "MLA103", "MLA105"]


def test_search_status_alone(client, reads_loaded):
    assert results(client, {"status": "paused"})["results"] == ["MLA104", "MLA106"]


def test_search_without_filters_lists_every_item_of_the_seller(client, reads_loaded):
    body = results(client, {})
    assert body["results"] == ["MLA100", "MLA101", "MLA102", "MLA103", "MLA104", "MLA105", "MLA106"]


def test_search_pages_with_limit_and_offset(client, reads_loaded):
    body = results(client, {"limit": 2, "offset": 1})
    assert body["results"] == ["MLA101", "MLA102"]
    assert body["paging"] == {"total": 7, "offset": 1, "limit": 2}


def test_search_paging_in_the_query_is_text_of_an_integer(client, reads_loaded):
    assert results(client, {"limit": "2", "offset": "1"})["paging"] == {"total": 7, "offset": 1, "limit": 2}
    for field, value in (("offset", "2.5"), ("limit", "2.7")):
        body = assert_error(search(client, {field: value}), 400, "validation_error")
        assert body["cause"][0]["field"] == field


# --- endpoints 4 and 5 with search_type=scan --------------------------------------------

def test_scan_pages_with_one_scroll_id_until_it_answers_no_results(client, reads_loaded):
    first = results(client, {"search_type": "scan", "limit": 3})
    scroll_id = first["scroll_id"]
    assert first["results"] == ["MLA100", "MLA101", "MLA102"]
    assert first["paging"] == {"total": 7, "offset": 0, "limit": 3}
    pages = [results(client, {"search_type": "scan", "scroll_id": scroll_id, "limit": 3}) for _ in range(3)]
    assert [p["results"] for p in pages] == [["MLA103", "MLA104", "MLA105"], ["MLA106"], []]
    assert [p["paging"]["offset"] for p in pages] == [3, 6, 7] and {p["scroll_id"] for p in pages} == {scroll_id}
    assert {p["paging"]["total"] for p in pages} == {7}


def test_scan_keeps_the_filters_it_began_with(client, reads_loaded):
    everything = results(client, {"status": "active", "has_compatibilities": "true"})["results"]
    first = results(client, {"search_type": "scan", "status": "active", "has_compatibilities": "true", "limit": 1})
    rest = results(client, {"scroll_id": first["scroll_id"], "limit": 100})
    assert first["results"] + rest["results"] == everything and len(everything) > 1
    assert rest["filters"] == {"status": "active", "has_compatibilities": True}


def test_a_plain_search_has_no_scroll_id_and_scans_are_their_own(client, reads_loaded):
    assert "scroll_id" not in results(client, {})
    scroll_id = results(client, {"search_type": "scan"})["scroll_id"]
    other = results(client, {"search_type": "scan"})["scroll_id"]
    assert other != scroll_id and len(scroll_id) >= 32


@pytest.mark.parametrize("query", [{"scroll_id": "nope"}, {"search_type": "scroll"}])
def test_scan_refuses_an_unknown_scroll_id_or_search_type(client, reads_loaded, query):
    body = assert_error(search(client, query), 400, "validation_error")
    assert body["cause"][0]["field"] == next(iter(query))


def test_a_scroll_id_is_its_sellers_alone(client, reads_loaded):
    scroll_id = results(client, {"search_type": "scan"})["scroll_id"]
    other = search(client, {"scroll_id": scroll_id}, seller=OTHER_SELLER)
    assert assert_error(other, 400, "validation_error")["cause"][0]["field"] == "scroll_id"


def test_search_rejects_an_unknown_tag(client, reads_loaded):
    body = assert_error(search(client, {"tags": "closed_items"}), 400, "validation_error")
    assert "incomplete_compatibilities" in body["message"] and "pending_compatibilities" in body["message"]
    assert body["cause"][0]["field"] == "tags"


def test_search_rejects_an_unknown_status(client, reads_loaded):
    body = assert_error(search(client, {"status": "sold"}), 400, "validation_error")
    assert "active" in body["message"] and body["cause"][0]["field"] == "status"


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": 201}, {"offset": -1}, {"has_compatibilities": "maybe"}])
def test_search_rejects_bad_paging_and_flags(client, reads_loaded, query):
    assert_error(search(client, query), 400, "validation_error")


def test_search_of_another_users_items_is_forbidden(client, reads_loaded):
    response = search(client, {"tags": "incomplete_compatibilities"}, seller=OTHER_SELLER,
                      token=TOKENS[SELLER])
    assert_error(response, 403, "forbidden")


def test_search_checks_the_caller_before_the_parameters(client, reads_loaded):
    response = search(client, {"tags": "bogus"}, seller=OTHER_SELLER, token=TOKENS[SELLER])
    assert_error(response, 403, "forbidden")


def test_search_needs_a_token(client, reads_loaded):
    assert_error(client.get(f"/users/{SELLER}/items/search"), 401, "invalid_token")


# --- documentation ----------------------------------------------------------------------

DOCUMENTED_ERRORS = {
    ("get", "/catalog/dumps/domains/{site_id}/compatibilities"): {"404"},
    ("get", "/catalog_compatibilities/restrictions/values"): {"400", "401", "404"},
    ("get", "/items/{item_id}"): {"401", "404"},
    ("get", "/users/{seller_id}/items/search"): {"400", "401", "403"},
    ("post", "/items/compatibilities_summary"): {"400", "401", "403", "404"},
    ("post", "/items/catalog_domains/{domain_id}/compatibilities/cards"): {"400", "401", "403", "404"},
    ("post", "/catalog_domains/{domain_id}/compatibilities/cards"): {"400", "401", "403", "404"},
    ("get", "/compats-snapshots/orders/{order_id}"): {"400", "401", "403"},
}


@pytest.mark.parametrize("method, path", sorted(DOCUMENTED_ERRORS))
def test_read_endpoints_document_their_error_statuses(client, method, path):
    operation = client.get("/openapi.json").get_json()["paths"][path][method]
    assert DOCUMENTED_ERRORS[(method, path)] <= set(operation["responses"])
    assert all(f"`{code}`" in operation["responses"][status]["description"]
               for status in DOCUMENTED_ERRORS[(method, path)]
               for code in operation["responses"][status]["x-error-codes"])
