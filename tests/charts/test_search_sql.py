"""Chart search (endpoint 25) runs SQL compiled once per shape: the cached SQL never keeps the
values of an earlier request, and a page past the end still reports the total."""
import importlib

from app import prepared_sql
from tests.charts.test_search import AUTH, MEN_ADIDAS, ids, loaded, search  # noqa: F401

WOMEN_NIKE = [{"id": "GENDER", "values": [{"name": "Mujer"}]}, {"id": "BRAND", "values": [{"name": "Nike"}]}]


def test_same_shape_with_other_values_finds_other_charts(client):
    men = ids(search(client))
    women = ids(search(client, attributes=WOMEN_NIKE))
    assert men == ["100", "200", "201", "300"] and women != men
    assert ids(search(client)) == men


def test_page_past_the_end_still_reports_the_total(client):
    body = search(client, query={"limit": 2, "offset": 10}).get_json()
    assert body == {"charts": [], "paging": {"total": 4, "offset": 10, "limit": 2}}
    assert search(client, query={"limit": 2, "offset": 3}).get_json()["paging"]["total"] == 4


def test_search_runs_three_queries_with_the_token_lookup_then_two(client, statements, monkeypatch):
    """The sheet read by the first search is kept by the worker: the next ones run the token
    lookup and the page, which reads the catalog version the kept sheet is checked against."""
    # Nothing kept from an earlier test's database of the same name (it would cost one more query).
    monkeypatch.setattr(importlib.import_module("app.services.charts.search"), "_sheets", {})
    assert ids(search(client)) == ["100", "200", "201", "300"]
    assert len(statements) == 3, statements
    del statements[:]
    assert ids(search(client)) == ["100", "200", "201", "300"]
    assert ids(search(client, attributes=WOMEN_NIKE)) != ["100", "200", "201", "300"]
    assert len(statements) == 4, statements


def test_unusual_shapes_past_the_cache_limit_are_compiled_per_request(client, monkeypatch):
    monkeypatch.setattr(prepared_sql, "MAX_PREPARED", 0)
    monkeypatch.setattr(prepared_sql, "_prepared", {})
    assert ids(search(client)) == ["100", "200", "201", "300"]
    assert ids(search(client, attributes=WOMEN_NIKE)) != ["100", "200", "201", "300"]
    assert prepared_sql._prepared == {}


def test_a_kept_sheet_is_read_again_after_an_import_changes_it(client, load_bundle):
    """The worker keeps what a search read of the sheet, stamped with the catalog version; an
    import bumps it, and the next search checks the new sheet (here BRAND becomes required)."""
    from tests.charts_data import specifications
    men = [{"id": "GENDER", "values": [{"name": "Hombre"}]}]
    assert search(client, domain_id="T_SHIRTS", attributes=men).status_code == 200
    assert search(client, domain_id="T_SHIRTS", attributes=men).status_code == 200
    load_bundle({"technical_specs": [specifications("MLA-T_SHIRTS")]})
    refused = search(client, domain_id="T_SHIRTS", attributes=men)
    assert refused.status_code == 400 and "BRAND" in refused.get_json()["message"], refused.get_json()
    with_brand = search(client, domain_id="T_SHIRTS", attributes=[*men, {"id": "BRAND", "values": [{"name": "x"}]}])
    assert with_brand.status_code == 200
