"""Endpoint 11 (compatibility summary), endpoint 6 (suggestion and complaint cards) and the
reputation counts behind them."""
import pytest

from app.services.compat import reputation
from tests.bundles import MLB_SELLER, OTHER_SELLER, SELLER, TOKENS
from tests.helpers import assert_error, bearer
from tests.reads_data import reads_bundle

AUTH = bearer(TOKENS[SELLER])
SUMMARY = "/items/compatibilities_summary"
CARDS = "/items/catalog_domains/{}/compatibilities/cards"
CARDS_SHORT = "/catalog_domains/{}/compatibilities/cards"


# --- reputation -------------------------------------------------------------------------

def test_claims_by_product_groups_the_items_claims_by_chosen_vehicle(run_db, reads_loaded):
    assert run_db(reputation.claims_by_product, "MLA100") == {
        "MLA90001": 2, "MLA90002": 1, "MLA90009": 1, "MLA90010": 1}


def test_claims_by_item_counts_only_claims_against_existing_compatibilities(run_db, reads_loaded):
    assert run_db(reputation.claims_by_item, ["MLA100", "MLA101", "MLA102"]) == {
        "MLA100": 3, "MLA101": 0, "MLA102": 0}


def test_compatibilities_with_claims_counts_each_compatibility_once(run_db, reads_loaded):
    assert run_db(reputation.compatibilities_with_claims, "MLA100") == 2


# --- endpoint 11 ------------------------------------------------------------------------

def summary(client, items, domain_id="MLA-CARS_AND_VANS", token=TOKENS[SELLER]):
    return client.post(SUMMARY, json={"domain_id": domain_id, "items": items}, headers=bearer(token))


def test_summary_counts_compatibilities_claims_notes_and_restrictions_in_request_order(client, reads_loaded):
    response = summary(client, ["MLA102", "MLA100", "MLA101"])
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == [
        {"item_id": "MLA102", "item_title": "Alfombras de goma universales", "compatibilities_count": 1,
         "compatibilities_claims_count": 0, "notes_count": 0, "restrictions_count": 0},
        {"item_id": "MLA100", "item_title": "Pastillas de freno delanteras Gol", "compatibilities_count": 3,
         "compatibilities_claims_count": 3, "notes_count": 2, "restrictions_count": 1},
        {"item_id": "MLA101", "item_title": "Pastillas de freno traseras Hilux", "compatibilities_count": 0,
         "compatibilities_claims_count": 0, "notes_count": 0, "restrictions_count": 0}]


def test_summary_accepts_the_items_own_domain(client, reads_loaded):
    body = summary(client, ["MLA100"], domain_id="MLA-BRAKE_PADS").get_json()
    assert body[0]["compatibilities_count"] == 3 and body[0]["compatibilities_claims_count"] == 3


def test_summary_for_a_vehicle_domain_counts_only_that_domains_compatibilities(client, load_bundle):
    bundle = reads_bundle()
    bundle["domains"].append({"id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Motos"})
    bundle["domain_compatibilities"][1]["compatibilities"].append(
        {"compatible_domain_id": "MLA-MOTORCYCLES", "type": "EXTENSION", "required": False, "restrictions": [],
         "categories": [{"id": "MLA1747", "required": False, "note_status": "ENABLED",
                         "restrictions_status": "ENABLED", "universal_status": "DISABLED"}]})
    bundle["products"] += [
        {"id": "MLA7000", "domain_id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Honda CG", "attributes": []},
        {"id": "MLA7001", "domain_id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Honda CG 150",
         "parent_id": "MLA7000", "attributes": []}]
    bundle["compatibilities"].append({"item_id": "MLA100", "product_id": "MLA7001", "note": "Solo freno trasero"})
    load_bundle(bundle)
    counts = {domain: summary(client, ["MLA100"], domain_id=domain).get_json()[0]
              for domain in ("MLA-CARS_AND_VANS", "MLA-MOTORCYCLES", "MLA-BRAKE_PADS")}
    assert {d: (c["compatibilities_count"], c["notes_count"], c["compatibilities_claims_count"])
            for d, c in counts.items()} == {"MLA-CARS_AND_VANS": (3, 2, 3), "MLA-MOTORCYCLES": (1, 1, 0),
                                            "MLA-BRAKE_PADS": (4, 3, 3)}


def test_summary_answers_a_repeated_item_once(client, reads_loaded):
    assert [r["item_id"] for r in summary(client, ["MLA100", "MLA101", "MLA100"]).get_json()] == [
        "MLA100", "MLA101"]


def test_summary_rejects_an_item_neither_of_nor_compatible_with_the_domain(client, reads_loaded):
    body = assert_error(summary(client, ["MLA100", "MLA102"], domain_id="MLA-BRAKE_PADS"), 400, "domain_mismatch")
    assert "MLA102" in body["message"] and "MLA100" not in body["message"]


def test_summary_rejects_more_than_100_items(client, reads_loaded):
    body = assert_error(summary(client, [f"MLA{n}" for n in range(1000, 1101)]), 400, "too_many_items")
    assert "100" in body["message"]


def test_summary_accepts_exactly_100_items(client, reads_loaded):
    # 100 ids pass the limit and reach the existence check.
    assert_error(summary(client, [f"MLA{n}" for n in range(1000, 1100)]), 404, "item_not_found")


def test_summary_names_every_missing_item(client, reads_loaded):
    body = assert_error(summary(client, ["MLA100", "MLA998", "MLA999"]), 404, "item_not_found")
    assert "MLA998" in body["message"] and "MLA999" in body["message"]
    assert [c["code"] for c in body["cause"]] == ["item_not_found", "item_not_found"]


def test_summary_of_another_sellers_item_is_forbidden(client, reads_loaded):
    body = assert_error(summary(client, ["MLA100", "MLA200"]), 403, "forbidden")
    assert "MLA200" in body["message"]


def test_summary_rejects_malformed_item_ids(client, reads_loaded):
    assert_error(summary(client, ["MLA100", "not an id"]), 400, "invalid_item_id")


def test_summary_of_an_unknown_domain_answers_404(client, reads_loaded):
    assert_error(summary(client, ["MLA100"], domain_id="MLA-NOPE"), 404, "domain_not_found")


@pytest.mark.parametrize("body, field", [({"items": ["MLA100"]}, "domain_id"),
                                         ({"domain_id": "MLA-CARS_AND_VANS"}, "items"),
                                         ({"domain_id": "MLA-CARS_AND_VANS", "items": []}, "items"),
                                         ({"domain_id": "MLA-CARS_AND_VANS", "items": ["MLA100"], "x": 1}, "x")])
def test_summary_validates_its_body(client, reads_loaded, body, field):
    error = assert_error(client.post(SUMMARY, json=body, headers=AUTH), 400, "validation_error")
    assert [c["field"] for c in error["cause"]] == [field]


def test_summary_needs_a_token(client, reads_loaded):
    assert_error(client.post(SUMMARY, json={"domain_id": "MLA-CARS_AND_VANS", "items": ["MLA100"]}),
                 401, "invalid_token")


# --- endpoint 6 -------------------------------------------------------------------------

def cards(client, item_id, filters, domain_id="MLA-CARS_AND_VANS", token=TOKENS[SELLER], path=CARDS, **extra):
    return client.post(path.format(domain_id), json={"item_id": item_id, "filters": filters, **extra},
                       headers=bearer(token))


@pytest.mark.parametrize("path", [CARDS, CARDS_SHORT])
def test_cards_answer_one_card_per_requested_filter_in_request_order(client, reads_loaded, path):
    response = cards(client, "MLA100", ["REPUTATION", "SUGGESTED"], path=path)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [(c["filter"], c["quantity"]) for c in body] == [("REPUTATION", 2), ("SUGGESTED", 1)]
    assert body[0]["title"] == "2 compatibilidades con reclamos"
    assert body[1]["title"] == "Tienes 1 sugerencia de compatibilidad"
    assert all(c["subtitle"] for c in body)


def test_cards_leave_out_filters_with_nothing_to_show(client, reads_loaded):
    body = cards(client, "MLA101", ["REPUTATION", "SUGGESTED"]).get_json()
    assert body == [{"title": "Tienes 2 sugerencias de compatibilidad", "subtitle": body[0]["subtitle"],
                     "filter": "SUGGESTED", "quantity": 2}]
    assert cards(client, "MLA101", ["REPUTATION"]).get_json() == []


def test_cards_are_in_portuguese_for_mlb(client, reads_loaded):
    body = cards(client, "MLB300", ["SUGGESTED", "REPUTATION"], domain_id="MLB-CARS_AND_VANS",
                 token=TOKENS[MLB_SELLER]).get_json()
    assert [c["title"] for c in body] == ["Você tem 1 sugestão de compatibilidade",
                                          "1 compatibilidade com reclamações"]


def test_cards_accept_a_known_product_id_as_a_hint(client, reads_loaded):
    body = cards(client, "MLA100", ["REPUTATION"], product_id="MLA90001").get_json()
    assert [(c["filter"], c["quantity"]) for c in body] == [("REPUTATION", 2)]


def test_cards_reject_an_unknown_product_id(client, reads_loaded):
    assert_error(cards(client, "MLA100", ["REPUTATION"], product_id="MLA1"), 404, "product_not_found")


def test_cards_of_another_sellers_item_are_forbidden(client, reads_loaded):
    assert_error(cards(client, "MLA200", ["SUGGESTED"]), 403, "forbidden")


def test_cards_of_an_unknown_item_answer_404(client, reads_loaded):
    assert_error(cards(client, "MLA999", ["SUGGESTED"]), 404, "item_not_found")


def test_cards_reject_a_malformed_item_id(client, reads_loaded):
    assert_error(cards(client, "item-100", ["SUGGESTED"]), 400, "invalid_item_id")


def test_cards_of_an_unknown_domain_answer_404(client, reads_loaded):
    assert_error(cards(client, "MLA100", ["SUGGESTED"], domain_id="MLA-NOPE"), 404, "domain_not_found")


def test_cards_reject_a_domain_the_item_cannot_be_compatible_with(client, reads_loaded):
    assert_error(cards(client, "MLA100", ["SUGGESTED"], domain_id="MLB-CARS_AND_VANS"), 400, "domain_mismatch")


@pytest.mark.parametrize("body, field", [({"filters": ["SUGGESTED"]}, "item_id"),
                                         ({"item_id": "MLA100"}, "filters"),
                                         ({"item_id": "MLA100", "filters": []}, "filters"),
                                         ({"item_id": "MLA100", "filters": ["NEWEST"]}, "filters.0")])
def test_cards_validate_their_body(client, reads_loaded, body, field):
    error = assert_error(client.post(CARDS.format("MLA-CARS_AND_VANS"), json=body, headers=AUTH),
                         400, "validation_error")
    assert [c["field"] for c in error["cause"]] == [field]


def test_cards_need_a_token(client, reads_loaded):
    response = client.post(CARDS.format("MLA-CARS_AND_VANS"), json={"item_id": "MLA100", "filters": ["SUGGESTED"]})
    assert_error(response, 401, "invalid_token")


def test_cards_by_other_seller_token_do_not_reveal_counts(client, reads_loaded):
    assert_error(cards(client, "MLA100", ["REPUTATION"], token=TOKENS[OTHER_SELLER]), 403, "forbidden")


def test_postgresql_counts_the_items_of_compatibilities_as_a_share_of_the_rows(run_db, reads_loaded):
    """ANALYZE's page sample undercounts the items of a table written item by item, and a summary of
    100 items then read the whole table: the planner takes ITEM_SHARE instead, after ANALYZE too."""
    from app.db import db, is_postgres
    from app.services.compat.queries import ITEM_SHARE

    if not run_db(is_postgres):
        pytest.skip("SQLite's planner reads no per-column count of distinct values")

    def planner_count():
        db.execute_sql('ANALYZE "compatibility"')
        return db.execute_sql("SELECT n_distinct FROM pg_stats WHERE schemaname = current_schema()"
                              " AND tablename = 'compatibility' AND attname = 'item_key'").fetchone()[0]
    assert run_db(planner_count) == ITEM_SHARE
