"""Site search: full-text matching over the site's active items, paging, sorts, category filter."""
import json
import re

import pytest

from tests.bundles import MLB_SELLER, OTHER_SELLER, base_bundle, item

# Base bundle MLA items: MLA100 "Pastillas de freno delanteras Gol", MLA101 "Pastillas de freno traseras
# Hilux", MLA102 "Alfombras de goma universales", MLA103 "Kit bujías NGK Corolla", MLA200 "Pastillas Ford
# Ranger" (all price 1000); MLB300 "Pastilhas de freio dianteiras Gol".
EXTRA_ITEMS = [
    item("MLA110", "MLA6520", "MLA-SPARK_PLUGS", title="BUJÍAS Iridium Bosch 1.6", price=5200.0),
    item("MLA111", "MLA6520", "MLA-SPARK_PLUGS", title="Bujia suelta Champion", price=800.0),
    item("MLA112", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas freno cerámicas Gol Trend", price=3100.5),
    item("MLA113", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas freno pausadas", price=10.0, status="paused"),
    item("MLA114", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas freno cerradas", price=20.0, status="closed"),
    item("MLA115", "MLA8533", "MLA-CAR_FLOOR_MATS", title="Alfombra Ñandú de goma", price=None,
         seller=OTHER_SELLER),
    item("MLB310", "MLB2201", "MLB-BRAKE_PADS", seller=MLB_SELLER, site="MLB",
         title="Pastilhas freio Bujías", price=90.0),
]


@pytest.fixture
def catalog(load_bundle):
    bundle = base_bundle()
    bundle["items"] += EXTRA_ITEMS
    load_bundle(bundle)
    return bundle


def search(client, site="MLA", **params):
    return client.get(f"/sites/{site}/search", query_string=params)


def ids(response):
    body = response.get_json()
    assert response.status_code == 200, body
    return [r["id"] for r in body["results"]]


def assert_error(response, status, error):
    body = response.get_json()
    assert response.status_code == status, body
    assert body["status"] == status and body["error"] == error and body["message"]
    return body


# --- matching ---------------------------------------------------------------------------

def test_search_answers_the_marketplace_shape(client, catalog):
    body = search(client, q="alfombras").get_json()
    assert set(body) == {"site_id", "query", "paging", "results", "sort", "available_sorts", "filters",
                         "available_filters"}
    assert body["site_id"] == "MLA" and body["query"] == "alfombras"
    assert body["paging"] == {"total": 1, "offset": 0, "limit": 50}
    assert body["results"] == [{
        "id": "MLA102", "site_id": "MLA", "title": "Alfombras de goma universales", "price": 1000.0,
        "currency_id": "ARS", "category_id": "MLA8533", "domain_id": "MLA-CAR_FLOOR_MATS",
        "seller": {"id": 1001}, "official_store_id": None, "catalog_product_id": None,
        "catalog_listing": False, "status": "active"}]
    assert body["sort"] == {"id": "relevance", "name": "Más relevantes"}
    assert body["filters"] == []


def test_search_matches_title_words(client, catalog):
    assert sorted(ids(search(client, q="Hilux"))) == ["MLA101"]
    assert sorted(ids(search(client, q="goma"))) == ["MLA102", "MLA115"]


def test_search_requires_every_word(client, catalog):
    assert sorted(ids(search(client, q="pastillas gol"))) == ["MLA100", "MLA112"]
    assert ids(search(client, q="pastillas corolla")) == []


def test_search_matches_words_as_prefixes(client, catalog):
    assert sorted(ids(search(client, q="pastill delan"))) == ["MLA100"]


def test_search_ignores_accents_and_case(client, catalog):
    expected = ["MLA103", "MLA110"]
    for q in ("bujias", "BUJÍAS", "Bujías", "bUjIaS"):
        assert sorted(ids(search(client, q=q))) == expected, q
    assert ids(search(client, q="nandu")) == ["MLA115"]
    assert ids(search(client, q="CERAMICAS")) == ["MLA112"]


def test_search_splits_words_on_punctuation(client, catalog):
    assert ids(search(client, q="iridium 1.6")) == ["MLA110"]
    assert ids(search(client, q="iridium-bosch")) == ["MLA110"]


def test_search_returns_only_active_items_of_the_site(client, catalog):
    found = ids(search(client, q="pastillas freno"))
    assert "MLA113" not in found and "MLA114" not in found
    assert sorted(found) == ["MLA100", "MLA101", "MLA112"]
    assert ids(search(client, site="MLB", q="bujias")) == ["MLB310"]
    assert "MLB310" not in ids(search(client, q="bujias"))


def test_search_follows_title_changes_made_by_a_reimport(client, catalog, load_bundle):
    bundle = base_bundle()
    bundle["items"] = [dict(i, title="Amortiguador trasero Gol") if i["id"] == "MLA102" else i
                       for i in bundle["items"]]
    load_bundle(bundle)
    assert ids(search(client, q="amortiguador")) == ["MLA102"]
    assert ids(search(client, q="universales")) == []


def test_search_sees_items_added_by_a_later_import(client, catalog, load_bundle):
    load_bundle({"items": [item("MLA120", "MLA6520", "MLA-SPARK_PLUGS", title="Bujía Denso")]})
    assert sorted(ids(search(client, q="bujia"))) == ["MLA103", "MLA110", "MLA111", "MLA120"]


def test_unknown_site_answers_404(client, catalog):
    assert_error(search(client, site="MLZ", q="gol"), 404, "site_not_found")


# --- q validation and hostile input -----------------------------------------------------

@pytest.mark.parametrize("params", [{}, {"q": ""}, {"q": "   "}])
def test_missing_or_blank_q_answers_400(client, catalog, params):
    body = assert_error(search(client, **params), 400, "validation_error")
    assert [c["field"] for c in body["cause"]] == ["q"]


def test_too_long_q_answers_400_saying_the_limit(client, catalog):
    body = assert_error(search(client, q="gol " * 60), 400, "validation_error")
    assert "200" in body["cause"][0]["message"]


@pytest.mark.parametrize("q", [
    '"', '""', "AND (", "OR", "NOT gol", "NEAR(gol hilux)", "pastillas*", "*", "^gol", "title:gol",
    "gol + -hilux", "{title}: gol", "' OR 1=1 --", "'; DROP TABLE item; --", "gol' AND '1'='1",
    "\\", "%", "_", "gol & hilux | !x", "gol:*", "'gol':* & (", "(((", "\x00", "😀 gol", "ñ" * 200,
])
def test_hostile_q_never_fails(client, catalog, q):
    response = search(client, q=q)
    assert response.status_code in (200, 400), response.get_json()
    if response.status_code == 200:
        body = response.get_json()
        assert body["paging"]["total"] == len(body["results"])


def test_fts_operators_in_q_are_plain_words(client, catalog):
    assert ids(search(client, q='"gol"')) == ids(search(client, q="gol"))
    assert ids(search(client, q="pastillas* AND (gol")) == []  # "and" is a word that no title holds
    assert ids(search(client, q='"')) == []
    assert search(client, q="'; DROP TABLE item; --").status_code == 200
    assert ids(search(client, q="hilux")) == ["MLA101"]


# --- paging -----------------------------------------------------------------------------

def test_paging_totals_count_every_page(client, catalog):
    body = search(client, q="pastillas", limit=2).get_json()
    assert body["paging"] == {"total": 4, "offset": 0, "limit": 2}
    assert len(body["results"]) == 2


def test_limit_and_offset_combine_to_a_range(client, catalog):
    everything = ids(search(client, q="pastillas", sort="price_asc"))
    assert len(everything) == 4
    page = search(client, q="pastillas", sort="price_asc", offset=1, limit=2)
    assert ids(page) == everything[1:3]
    assert page.get_json()["paging"] == {"total": 4, "offset": 1, "limit": 2}


def test_offset_past_the_end_answers_empty_results_with_the_total(client, catalog):
    body = search(client, q="pastillas", offset=10).get_json()
    assert body["results"] == [] and body["paging"] == {"total": 4, "offset": 10, "limit": 50}


@pytest.mark.parametrize("params, field, allowed", [
    ({"limit": 0}, "limit", "between 1 and 200"), ({"limit": 201}, "limit", "between 1 and 200"),
    ({"offset": -1}, "offset", "between 0 and 10000"), ({"offset": 10001}, "offset", "between 0 and 10000"),
    ({"limit": "x"}, "limit", ""),
])
def test_out_of_range_paging_answers_400_saying_the_range(client, catalog, params, field, allowed):
    body = assert_error(search(client, q="gol", **params), 400, "validation_error")
    assert [c["field"] for c in body["cause"]] == [field]
    assert allowed in body["cause"][0]["message"]


# --- sorts ------------------------------------------------------------------------------

def test_sort_by_price_ascending_and_descending(client, catalog):
    assert ids(search(client, q="bujia", sort="price_asc")) == ["MLA111", "MLA103", "MLA110"]
    assert ids(search(client, q="bujia", sort="price_desc")) == ["MLA110", "MLA103", "MLA111"]


def test_items_without_price_sort_last_both_ways(client, catalog):
    assert ids(search(client, q="goma", sort="price_asc"))[-1] == "MLA115"
    assert ids(search(client, q="goma", sort="price_desc"))[-1] == "MLA115"


def test_relevance_sort_puts_the_better_match_first(client, catalog, load_bundle):
    load_bundle({"items": [item("MLA130", "MLA1747", "MLA-BRAKE_PADS", title="Gol Gol Gol")]})
    found = ids(search(client, q="gol"))
    assert found[0] == "MLA130" and set(found) == {"MLA100", "MLA112", "MLA130"}
    assert ids(search(client, q="gol", sort="relevance")) == found


def test_sort_and_available_sorts_name_the_choices(client, catalog):
    body = search(client, q="gol", sort="price_desc").get_json()
    assert body["sort"] == {"id": "price_desc", "name": "Mayor precio"}
    assert body["available_sorts"] == [{"id": "relevance", "name": "Más relevantes"},
                                       {"id": "price_asc", "name": "Menor precio"}]


def test_unknown_sort_answers_400_listing_the_allowed_values(client, catalog):
    body = assert_error(search(client, q="gol", sort="newest"), 400, "validation_error")
    assert body["cause"][0]["field"] == "sort"
    for allowed in ("relevance", "price_asc", "price_desc"):
        assert allowed in body["cause"][0]["message"]


# --- category filter --------------------------------------------------------------------

def test_available_filters_count_results_per_category(client, catalog):
    body = search(client, q="freno").get_json()
    assert body["paging"]["total"] == 3
    assert body["available_filters"] == [{
        "id": "category", "name": "Categorías", "type": "text",
        "values": [{"id": "MLA1747", "name": "Pastillas de freno", "results": 3}]}]
    values = search(client, q="goma").get_json()["available_filters"][0]["values"]
    assert values == [{"id": "MLA8533", "name": "Alfombras", "results": 2}]


def test_category_counts_cover_every_page(client, catalog, load_bundle):
    load_bundle({"items": [item("MLA140", "MLA6520", "MLA-SPARK_PLUGS", title="Kit encendido Gol"),
                           item("MLA141", "MLA8533", "MLA-CAR_FLOOR_MATS", title="Alfombra Gol"),
                           item("MLA142", "MLA8533", "MLA-CAR_FLOOR_MATS", title="Alfombra Gol Trend")]})
    body = search(client, q="gol", limit=1).get_json()
    assert body["paging"]["total"] == 5 and len(body["results"]) == 1
    values = body["available_filters"][0]["values"]
    assert values == [{"id": "MLA1747", "name": "Pastillas de freno", "results": 2},
                      {"id": "MLA8533", "name": "Alfombras", "results": 2},
                      {"id": "MLA6520", "name": "Bujías", "results": 1}]


def test_category_filter_narrows_results_and_is_listed_as_applied(client, catalog, load_bundle):
    load_bundle({"items": [item("MLA141", "MLA8533", "MLA-CAR_FLOOR_MATS", title="Alfombra Gol")]})
    response = search(client, q="gol", category="MLA8533")
    assert ids(response) == ["MLA141"]
    body = response.get_json()
    assert body["paging"]["total"] == 1
    assert body["filters"] == [{"id": "category", "name": "Categorías", "type": "text",
                                "values": [{"id": "MLA8533", "name": "Alfombras"}]}]
    assert body["available_filters"] == []


def test_category_of_another_site_or_unknown_answers_400(client, catalog):
    for category in ("MLB2201", "MLA0000"):
        body = assert_error(search(client, q="gol", category=category), 400, "invalid_category")
        assert body["cause"][0]["field"] == "category"


def test_nothing_found_answers_empty_lists(client, catalog):
    body = search(client, q="inexistente").get_json()
    assert body["paging"]["total"] == 0 and body["results"] == [] and body["available_filters"] == []


def test_portuguese_site_names_sorts_and_filters_in_portuguese(client, catalog):
    body = search(client, site="MLB", q="gol").get_json()
    assert body["sort"]["name"] == "Mais relevantes"
    assert body["available_filters"][0]["name"] == "Categorias"


# --- shared conventions -----------------------------------------------------------------

def test_search_needs_no_token(client, catalog):
    assert search(client, q="gol").status_code == 200


def test_attributes_reduce_the_search_body(client, catalog):
    body = search(client, q="gol", attributes="paging,query").get_json()
    assert body == {"paging": {"total": 2, "offset": 0, "limit": 50}, "query": "gol"}


def test_jsonp_wraps_search_results_and_errors(client, catalog):
    response = search(client, q="hilux", callback="cb")
    assert response.status_code == 200
    status, _, body = _jsonp(response)
    assert status == 200 and [r["id"] for r in body["results"]] == ["MLA101"]
    response = search(client, site="MLZ", q="gol", callback="cb")
    status, _, body = _jsonp(response)
    assert response.status_code == 200 and status == 404 and body["error"] == "site_not_found"


def test_options_describes_the_search(client):
    response = client.options("/sites/MLA/search")
    assert response.status_code == 200
    assert "GET" in [m["method"] for m in response.get_json()["methods"]]


def _jsonp(response):
    match = re.fullmatch(r"/\*\*/cb\((.*)\);", response.get_data(as_text=True), re.S)
    assert match
    return json.loads(match.group(1))


def test_index_created_after_the_items_covers_them_and_creation_is_idempotent(client, catalog, run_db):
    from app.db import db, is_postgres
    from app.services import search_index

    def rebuild():
        if is_postgres():
            db.execute_sql(f"ALTER TABLE item DROP COLUMN {search_index.PG_COLUMN}")
        else:
            for trigger in search_index.TRIGGERS:
                db.execute_sql(f"DROP TRIGGER {trigger}")
            db.execute_sql(f"DROP TABLE {search_index.FTS_TABLE}")
            db.execute_sql(f"DROP TABLE {search_index.KEY_TABLE}")
        search_index.ensure_search_index()
        search_index.ensure_search_index()

    run_db(rebuild)
    assert sorted(ids(search(client, q="bujias"))) == ["MLA103", "MLA110"]
