"""Endpoints 12 to 15: list, single, extended/check and note, with note visibility (rule 1)."""
import pytest

from tests.compat.compat_data import (
    FRONT,
    OTHER_H,
    SELLER_H,
    claimed_order,
    compat,
    full_bundle,
    listing,
    position,
    url,
)
from tests.helpers import assert_error, recorded_statements

IDS = {n: f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 6)}


def claims(order_ids):
    return [{"id": 5000000 + n, "order_id": order_id} for n, order_id in enumerate(order_ids)]


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(
        compatibilities=[
            compat("MLA100", "MLA90001", id=IDS[1], note="Aprobada", note_status="APPROVED",
                   restrictions=position([FRONT])),
            compat("MLA100", "MLA90002", id=IDS[2], note="Pendiente", note_status="PENDING"),
            compat("MLA100", "MLA90003", id=IDS[3], source="CATALOGO", note="Revisada", note_status="CHECKED"),
            compat("MLA100", "MLA90004", id=IDS[4], source="CATALOGO"),
            compat("MLA102", id=IDS[5])],
        orders=[claimed_order(7001, "MLA100", "MLA90001"), claimed_order(7002, "MLA100", "MLA90001"),
                claimed_order(7003, "MLA100", "MLA90001"), claimed_order(7004, "MLA100", "MLA90002")],
        claims=claims([7001, 7002, 7003, 7004])))


def entries(body):
    return {p["catalog_product_id"]: p for p in body["products"]}


def test_extended_list_has_every_field_and_counts_catalog_entries(client):
    body = listing(client)
    assert body["catalog_compatibilities_count"] == 2 and "paging" not in body and "universal" not in body
    found = entries(body)
    assert list(found) == ["MLA90001", "MLA90002", "MLA90003", "MLA90004"]
    first = found["MLA90001"]
    assert first["id"] == IDS[1] and first["domain_id"] == "MLA-CARS_AND_VANS" and first["source"] == "SELLER"
    assert first["catalog_product_name"] == "Volkswagen Gol 1.6 Trendline 2010"
    assert first["restrictions"][0]["attribute_values"][0]["values"][0]["value_id"] == FRONT["value_id"]
    assert found["MLA90003"]["source"] == "CATALOGO"


def test_restrictions_and_reputation_only_when_present(client):
    found = entries(listing(client))
    assert "restrictions" not in found["MLA90002"] and "reputation" not in found["MLA90004"]
    assert found["MLA90001"]["reputation"] == {"level": "RED", "claims_count": 3}
    assert found["MLA90002"]["reputation"] == {"level": "GREEN", "claims_count": 1}


def test_red_level_threshold_comes_from_config(app, client):
    app.config["REPUTATION_RED_CLAIMS"] = 1
    assert entries(listing(client))["MLA90002"]["reputation"]["level"] == "RED"


def test_list_without_extended_omits_notes_restrictions_and_reputation(client):
    response = client.get(url(), headers=SELLER_H)
    first = entries(response.get_json())["MLA90001"]
    assert set(first) == {"id", "domain_id", "catalog_product_id", "catalog_product_name", "source"}


def test_item_without_compatibilities_lists_empty_not_404(client):
    assert listing(client, "MLA101") == {"products": [], "catalog_compatibilities_count": 0}


def test_limit_and_offset_page_the_list(client):
    body = listing(client, limit=2, offset=1)
    assert body["paging"] == {"total": 4, "offset": 1, "limit": 2}
    assert [p["catalog_product_id"] for p in body["products"]] == ["MLA90002", "MLA90003"]
    assert listing(client, offset=3)["paging"] == {"total": 4, "offset": 3, "limit": 50}
    assert_error(client.get(url(), query_string={"limit": 0}, headers=SELLER_H), 400, "validation_error")


def test_non_seller_sees_only_approved_or_checked_notes(client):
    found = entries(listing(client, headers=OTHER_H))
    assert found["MLA90001"]["note"] == "Aprobada" and found["MLA90003"]["note"] == "Revisada"
    assert found["MLA90002"]["note"] == ""
    assert entries(listing(client))["MLA90002"]["note"] == "Pendiente"


def test_single_read_shows_note_status_to_the_seller_only(client):
    mine = client.get(url(suffix=f"/{IDS[2]}"), headers=SELLER_H).get_json()
    assert mine["note"] == "Pendiente" and mine["note_status"] == "PENDING"
    assert mine["reputation"] == {"level": "GREEN", "claims_count": 1} and "restrictions" not in mine
    theirs = client.get(url(suffix=f"/{IDS[2]}"), headers=OTHER_H).get_json()
    assert theirs["note"] == "" and "note_status" not in theirs
    assert client.get(url(suffix=f"/{IDS[1]}"), headers=OTHER_H).get_json()["note"] == "Aprobada"


def test_single_read_errors(client):
    assert_error(client.get(url("MLA999", f"/{IDS[1]}"), headers=SELLER_H), 404, "item_not_found")
    assert_error(client.get(url("MLA101", f"/{IDS[1]}"), headers=SELLER_H), 404, "compatibility_not_found")
    assert_error(client.get(url(suffix=f"/{IDS[1]}")), 401, "invalid_token")


def test_note_read_follows_visibility(client):
    assert client.get(url(suffix=f"/{IDS[2]}/note"), headers=SELLER_H).get_json() == {"note": "Pendiente"}
    assert client.get(url(suffix=f"/{IDS[2]}/note"), headers=OTHER_H).get_json() == {"note": ""}
    assert client.get(url(suffix=f"/{IDS[3]}/note"), headers=OTHER_H).get_json() == {"note": "Revisada"}
    assert_error(client.get(url(suffix="/nope/note"), headers=SELLER_H), 404, "compatibility_not_found")


def test_extended_check_answers_strings(client):
    assert client.get(url(suffix="/extended/check"), headers=OTHER_H).get_json() == {
        "note": "true", "restrictions": "true"}
    assert client.get(url("MLA103", "/extended/check"), headers=SELLER_H).get_json() == {
        "note": "false", "restrictions": "false"}
    assert_error(client.get(url("MLA999", "/extended/check"), headers=SELLER_H), 404, "item_not_found")


def test_reads_need_a_valid_token_401(client):
    assert_error(client.get(url()), 401, "invalid_token")
    assert_error(client.get(url(), headers={"Authorization": "Bearer nope"}), 401, "invalid_token")


def test_list_of_unknown_or_malformed_item(client):
    assert_error(client.get(url("MLA999"), headers=SELLER_H), 404, "item_not_found")
    assert_error(client.get(url("nope"), headers=SELLER_H), 400, "invalid_item_id")


def test_universal_item_lists_its_domains(client):
    body = listing(client, "MLA102")
    assert body == {"products": [], "catalog_compatibilities_count": 0,
                    "universal": {"id": IDS[5], "domain_ids": ["MLA-CARS_AND_VANS"]}}


def test_list_query_count_does_not_grow_with_entries(client, load_bundle):
    def count_queries():
        with recorded_statements() as executed:
            listing(client)
        return len(executed)

    few = count_queries()
    assert few == 2  # the token check with the item, then the entries with their totals and claims
    load_bundle({"compatibilities": [compat("MLA100", f"MLA9{n:04d}") for n in range(10, 36)]})
    assert count_queries() == few
