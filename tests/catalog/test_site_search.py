"""Site search: full-text matching over the site's active items, hostile queries, shared conventions."""
import pytest

from tests.bundles import base_bundle, item
from tests.catalog.search_data import ids, parse_jsonp, search
from tests.helpers import assert_error

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


# --- shared conventions -----------------------------------------------------------------

def test_search_needs_no_token(client, catalog):
    assert search(client, q="gol").status_code == 200


def test_attributes_reduce_the_search_body(client, catalog):
    body = search(client, q="gol", attributes="paging,query").get_json()
    assert body == {"paging": {"total": 2, "offset": 0, "limit": 50}, "query": "gol"}


def test_jsonp_wraps_search_results_and_errors(client, catalog):
    response = search(client, q="hilux", callback="cb")
    assert response.status_code == 200
    status, _, body = parse_jsonp(response)
    assert status == 200 and [r["id"] for r in body["results"]] == ["MLA101"]
    response = search(client, site="MLZ", q="gol", callback="cb")
    status, _, body = parse_jsonp(response)
    assert response.status_code == 200 and status == 404 and body["error"] == "site_not_found"


def test_options_describes_the_search(client):
    response = client.options("/sites/MLA/search")
    assert response.status_code == 200
    assert "GET" in [m["method"] for m in response.get_json()["methods"]]


def test_index_created_after_the_items_covers_them_and_creation_is_idempotent(client, catalog, run_db):
    from app.db import db, is_postgres
    from app.models import search_index

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
