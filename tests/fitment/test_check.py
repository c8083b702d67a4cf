"""B3: one item checked against one vehicle or a partly known one (public)."""
from tests.fitment.data import FRONT, GOL_2010_ATTRIBUTES, MLB_GOL


def check(client, item_id, body, status=200):
    response = client.post(f"/items/{item_id}/check_compatibility", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_by_product_with_the_buyer_visible_note_and_restrictions(fitment):
    assert check(fitment, "MLA100", {"product_id": "MLA90001"}) == {
        "compatibility_status": "COMPATIBLE", "product_ids": ["MLA90001"], "note": "Solo con ABS",
        "restrictions": FRONT}


def test_a_note_in_moderation_is_not_shown(fitment):
    assert check(fitment, "MLA100", {"product_id": "MLA90002"}) == {
        "compatibility_status": "COMPATIBLE", "product_ids": ["MLA90002"]}


def test_by_family_and_by_universal(fitment):
    assert check(fitment, "MLA110", {"product_id": "MLA90005"})["compatibility_status"] == "COMPATIBLE"
    assert check(fitment, "MLA102", {"product_id": "MLA90003"}) == {
        "compatibility_status": "COMPATIBLE", "product_ids": ["MLA90003"]}


def test_not_compatible_vehicle_site_or_domain(fitment):
    assert check(fitment, "MLA110", {"product_id": "MLA90002"}) == {"compatibility_status": "NOT_COMPATIBLE"}
    assert check(fitment, "MLB300", {"product_id": "MLA90001"}) == {"compatibility_status": "NOT_COMPATIBLE"}
    assert check(fitment, "MLA102", {"product_id": MLB_GOL}) == {"compatibility_status": "NOT_COMPATIBLE"}
    assert check(fitment, "MLA120", {"product_id": "MLA90001"}) == {"compatibility_status": "NOT_COMPATIBLE"}
    assert check(fitment, "MLA120", {"attributes": GOL_2010_ATTRIBUTES}) == {
        "compatibility_status": "NOT_COMPATIBLE"}


def test_partial_vehicle_that_the_item_fits_all_some_or_none_of(fitment):
    assert check(fitment, "MLA100", {"attributes": GOL_2010_ATTRIBUTES}) == {
        "compatibility_status": "COMPATIBLE", "product_ids": ["MLA90001", "MLA90002"]}
    assert check(fitment, "MLA110", {"attributes": GOL_2010_ATTRIBUTES}) == {
        "compatibility_status": "UNDETERMINED", "product_ids": ["MLA90001"]}
    assert check(fitment, "MLA101", {"attributes": GOL_2010_ATTRIBUTES}) == {
        "compatibility_status": "NOT_COMPATIBLE"}
    assert check(fitment, "MLA102", {"attributes": GOL_2010_ATTRIBUTES}) == {
        "compatibility_status": "COMPATIBLE", "product_ids": ["MLA90001", "MLA90002"]}


def test_partial_vehicle_meaning_one_product_or_none(fitment):
    one = GOL_2010_ATTRIBUTES + [{"id": "SHORT_VERSION", "value_id": "70001"}]
    assert check(fitment, "MLA100", {"attributes": one})["note"] == "Solo con ABS"
    nothing = [{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_id": "62200"}]
    assert check(fitment, "MLA100", {"attributes": nothing}) == {"compatibility_status": "NOT_COMPATIBLE"}


def test_paused_and_closed_items_still_answer(fitment):
    for item_id in ("MLA111", "MLA112"):
        assert check(fitment, item_id, {"product_id": "MLA90001"})["compatibility_status"] == "COMPATIBLE"


def test_unknown_item_product_or_attribute(fitment):
    assert check(fitment, "MLA999", {"product_id": "MLA90001"}, 404)["error"] == "item_not_found"
    assert check(fitment, "MLA100", {"product_id": "MLA99999"}, 404)["error"] == "product_not_found"
    assert check(fitment, "nope", {"product_id": "MLA90001"}, 400)["error"] == "invalid_item_id"
    body = check(fitment, "MLA100", {"attributes": [{"id": "BRAND", "value_id": "60249"},
                                                    {"id": "COLOR", "value_id": "1"}]}, 400)
    assert body["error"] == "unknown_attribute" and body["cause"][0]["field"] == "attributes.1.id"


def test_malformed_bodies(fitment):
    for body, field in (({}, "product_id"), ({"product_id": "MLA90001", "attributes": GOL_2010_ATTRIBUTES},
                                              "product_id"),
                        ({"attributes": [{"id": "BRAND", "value_id": "1"}, {"id": "BRAND", "value_id": "2"}]},
                         "attributes.1.id"),
                        ({"attributes": []}, "attributes"), ({"product_id": "MLA1", "extra": 1}, "extra")):
        answer = check(fitment, "MLA100", body, 400)
        assert answer["error"] == "validation_error" and answer["cause"][0]["field"] == field, answer
