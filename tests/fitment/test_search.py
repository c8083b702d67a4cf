"""B1 and B2: the site search narrowed to the active items that fit a vehicle or a partly known one."""
from urllib.parse import quote

import pytest

from tests.fitment.data import GOL_2010_FILTER, HILUX_2010
from tests.helpers import recorded_statements


def search(client, query):
    response = client.get(f"/sites/MLA/search?{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def fits(body):
    return {result["id"]: result["compatibility"] for result in body["results"]}


def test_compatible_with_finds_fits_by_product_by_family_and_universal(fitment):
    body = search(fitment, "compatible_with=MLA90001")
    assert fits(body) == {
        "MLA100": {"status": "COMPATIBLE", "note": "Solo con ABS", "restrictions": [
            {"attribute_id": "POSITION", "attribute_values": [
                {"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}]},
        "MLA110": {"status": "COMPATIBLE"},  # written by family, stored per product
        "MLA102": {"status": "COMPATIBLE"},  # universal for a domain that contains the vehicle
    }
    assert body["paging"] == {"total": 3, "offset": 0, "limit": 50}
    assert body["query"] is None


def test_paused_and_closed_items_are_never_results(fitment):
    assert not {"MLA111", "MLA112"} & set(fits(search(fitment, "compatible_with=MLA90001")))


def test_a_note_in_moderation_is_not_shown_to_buyers(fitment):
    assert fits(search(fitment, "compatible_with=MLA90002"))["MLA100"] == {"status": "COMPATIBLE"}


def test_a_vehicle_that_nothing_but_the_universal_item_fits(fitment):
    assert fits(search(fitment, "compatible_with=MLA90003")) == {"MLA102": {"status": "COMPATIBLE"}}


def test_partial_vehicle_fitting_all_or_some_of_its_products(fitment):
    body = search(fitment, f"compatibility_filter={GOL_2010_FILTER}")
    assert fits(body) == {"MLA100": {"status": "COMPATIBLE"},  # both Gol 2010: no note, two vehicles meant
                          "MLA102": {"status": "COMPATIBLE"},
                          "MLA110": {"status": "UNDETERMINED"}}  # the Trendline only
    # Without words, the items that fit every vehicle meant come first.
    assert [r["id"] for r in body["results"]][-1] == "MLA110"


def test_partial_vehicle_meaning_one_product_shows_its_note(fitment):
    body = search(fitment, f"compatibility_filter={GOL_2010_FILTER};SHORT_VERSION:70001")
    assert fits(body)["MLA100"]["note"] == "Solo con ABS"
    assert fits(body)["MLA110"] == {"status": "COMPATIBLE"}


def test_partial_vehicle_matching_no_product_answers_no_results(fitment):
    body = search(fitment, "compatibility_filter=BRAND:60249;MODEL:62200")  # a Toyota model under VW
    assert body["results"] == [] and body["paging"]["total"] == 0 and body["available_filters"] == []


def test_fitment_combines_with_words_category_sort_and_paging(fitment):
    assert set(fits(search(fitment, "compatible_with=MLA90001&q=pastillas"))) == {"MLA100", "MLA110"}
    assert set(fits(search(fitment, "compatible_with=MLA90001&category=MLA8533"))) == {"MLA102"}
    body = search(fitment, "compatible_with=MLA90001&sort=price_asc&limit=1&offset=0")
    assert [r["id"] for r in body["results"]] == ["MLA110"] and body["paging"]["total"] == 3
    counts = {v["id"]: v["results"] for v in body["available_filters"][0]["values"]}
    assert counts == {"MLA1747": 2, "MLA8533": 1}


def test_other_items_and_sites_stay_out(fitment):
    assert set(fits(search(fitment, f"compatible_with={HILUX_2010}"))) == {"MLA101", "MLA102"}
    response = fitment.get("/sites/MLB/search?compatible_with=MLA90001")
    assert response.status_code == 200 and response.get_json()["results"] == []


def test_unknown_product_or_site_is_404(fitment):
    response = fitment.get("/sites/MLA/search?compatible_with=MLA99999")
    assert response.status_code == 404 and response.get_json()["error"] == "product_not_found"
    for query in ("compatible_with=MLA90001", f"compatibility_filter={GOL_2010_FILTER}"):
        response = fitment.get(f"/sites/MLX/search?{query}")
        assert response.status_code == 404 and response.get_json()["error"] == "site_not_found", query


def test_malformed_filter_is_400_naming_the_part(fitment):
    for value, part in (("BRAND:60249;MODEL", "part 2 'MODEL'"), ("BRAND:60249;;", "part 2 ''"),
                        ("BRAND:60249;BRAND:60297", "repeats attribute BRAND"), (":1", "part 1 ':1'")):
        response = fitment.get(f"/sites/MLA/search?compatibility_filter={quote(value)}")
        body = response.get_json()
        assert response.status_code == 400 and body["error"] == "validation_error", value
        assert part in body["message"] and body["cause"][0]["field"] == "compatibility_filter", body


def test_unknown_attribute_is_400_naming_it(fitment):
    response = fitment.get("/sites/MLA/search?compatibility_filter=BRAND:60249;COLOR:1")
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "unknown_attribute" and "COLOR" in body["message"]


def test_one_way_to_name_the_vehicle_and_words_without_one(fitment):
    both = fitment.get(f"/sites/MLA/search?compatible_with=MLA90001&compatibility_filter={GOL_2010_FILTER}")
    assert both.status_code == 400 and both.get_json()["cause"][0]["field"] == "compatibility_filter"
    nothing = fitment.get("/sites/MLA/search")
    assert nothing.status_code == 400 and nothing.get_json()["cause"][0]["field"] == "q"


@pytest.mark.parametrize("fitment", [1], indirect=True, ids=["every-value-popular"])  # every pair count stored
def test_a_brand_its_known_model_implies_is_neither_tested_nor_counted(fitment):
    """B2 matches as the vehicle finder does (matching.narrowed): the stored pair counts show that
    every product of the model has the brand, so no product is tested for it, and the vehicles meant
    are counted from the stored pair count of the model and the year, not by a statement."""
    with recorded_statements() as seen:
        body = search(fitment, f"compatibility_filter={GOL_2010_FILTER}")
    assert fits(body) == {"MLA100": {"status": "COMPATIBLE"}, "MLA102": {"status": "COMPATIBLE"},
                          "MLA110": {"status": "UNDETERMINED"}}
    matching = [sql for sql in seen if '"k"."attribute_id"' in sql]
    assert matching and all(sql.count('"k"."attribute_id"') == 1 for sql in matching), matching
    assert not [sql for sql in seen if sql.startswith("SELECT COUNT(*)")]
    # A model of another brand: the pair counts show that no product has both, and nothing is matched.
    with recorded_statements() as seen:
        body = search(fitment, "compatibility_filter=BRAND:60249;MODEL:62200")
    assert body["results"] == [] and body["paging"]["total"] == 0
    assert not [sql for sql in seen if "product_attribute" in sql]


def test_the_narrowed_search_runs_by_generic_plans_and_gives_the_setting_back(fitment, run_db):
    """PostgreSQL: the page and the counts of a search narrowed by fitment are run by their generic
    plans (app.prepared_sql.generic_plans), so that planning them is not most of their time, and the
    connection's plan_cache_mode is the server's again for whatever it runs next."""
    from app.db import db, is_postgres
    from app.services.fitment import search_fitting_items

    def searched():
        answers = [search_fitting_items("MLA", "", limit=10, offset=0, sort="relevance",
                                        compatibility_filter=[("BRAND", "60249"), ("MODEL", "62109")])
                   for _ in range(6)]  # psycopg prepares a statement on the server from its fifth run
        mode = db.execute_sql("SHOW plan_cache_mode").fetchone()[0] if is_postgres() else None
        plans = db.execute_sql(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE '%%AS \"fit\"%%'").fetchall() if is_postgres() else []
        return answers, mode, plans

    answers, mode, plans = run_db(searched)
    assert all(page.items and page.total == answers[0].total for page in answers)
    if not run_db(is_postgres):
        return
    assert mode == "auto"
    assert len(plans) == 2, plans  # the counts and the page
    assert all(generic >= 1 and custom == 0 for _, generic, custom in plans), plans
    assert {"OFFSET" in sql for sql, _, _ in plans} == {True, False}
    with recorded_statements() as seen:  # one setting and its return for both statements
        search(fitment, f"compatibility_filter={GOL_2010_FILTER}")
    assert [sql for sql in seen if "plan_cache_mode" in sql] == [
        "SET plan_cache_mode = force_generic_plan", "RESET plan_cache_mode"], seen
