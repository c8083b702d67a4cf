"""Site search: paging, sorts, and the category filter with its counts."""
import pytest

from tests.bundles import item
from tests.catalog.search_data import ids, search
from tests.helpers import assert_error

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
