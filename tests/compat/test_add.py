"""Endpoint 8: adding compatibilities by product, group and family, and every error of its table."""
import re

import pytest

from app.models import Item, Suggestion
from tests.compat.compat_data import (
    GOL,
    GOL_2010,
    MLB_H,
    OTHER_H,
    SELLER_H,
    VW,
    compat,
    compatibility_rows,
    family,
    full_bundle,
    listing,
    position,
    product,
    url,
)
from tests.helpers import assert_error


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(compatibilities=[compat("MLA102")],
                            suggestions=[{"item_id": "MLA100", "product_id": "MLA90003"},
                                         {"item_id": "MLA100", "product_id": "MLA90030"}]))


def post(client, body, item_id="MLA100", headers=SELLER_H):
    return client.post(url(item_id), json=body, headers=headers)


def products_of(client, item_id="MLA100"):
    return sorted(p["catalog_product_id"] for p in listing(client, item_id)["products"])


def test_products_groups_and_families_add_each_product_once(client):
    response = post(client, {
        "products": [product("MLA90013")],
        "products_group": [{"ids": ["MLA90013", "MLA90015"], "creation_source": "ITEM_SUGGESTIONS"}],
        "products_families": [family(MODEL={"value_name": "Gol"})]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"created_compatibilities_count": 8}
    assert products_of(client) == sorted(GOL + ["MLA90013", "MLA90015"])


def test_readding_an_existing_product_is_skipped_and_not_counted(client):
    assert post(client, {"products": [product("MLA90001")]}).get_json()["created_compatibilities_count"] == 1
    again = post(client, {"products": [product("MLA90001"), product("MLA90002")]})
    assert again.status_code == 200 and again.get_json()["created_compatibilities_count"] == 1
    assert products_of(client) == list(GOL_2010)


def test_product_named_twice_in_one_request_is_created_once(client, run_db):
    response = post(client, {"products": [product("MLA90001", note="first")],
                             "products_group": [{"ids": ["MLA90001"], "creation_source": "DEFAULT",
                                                 "note": "second"}]})
    assert response.get_json()["created_compatibilities_count"] == 1
    notes = run_db(lambda: [c.note for c in compatibility_rows("MLA100")])
    assert notes == ["first"]


def test_creation_source_is_stored_and_new_note_is_pending(client, run_db):
    post(client, {"products": [product("MLA90001", source="NEW_VEHICLES", note="Solo ABS")]})
    row = run_db(lambda: compatibility_rows("MLA100")[0])
    assert (row.creation_source, row.source, row.note_status) == ("NEW_VEHICLES", "SELLER", "PENDING")


def test_creating_a_suggested_product_consumes_the_suggestion(client, run_db):
    post(client, {"products": [product("MLA90003", source="ITEM_SUGGESTIONS")]})
    left = run_db(lambda: [s.product_id for s in Suggestion.select().where(Suggestion.item == "MLA100")])
    assert left == ["MLA90030"]
    assert run_db(lambda: Item.get_by_id("MLA100").pending_suggestions) == 1


def test_item_state_is_refreshed_in_the_write(client, run_db):
    assert run_db(lambda: Item.get_by_id("MLA100").tag_incomplete) is True
    post(client, {"products": [product("MLA90001")]})
    item = run_db(lambda: Item.get_by_id("MLA100"))
    assert item.compatibilities_count == 1 and item.tag_incomplete is False


@pytest.mark.parametrize("element_key, element, field", [
    ("products", {"id": "MLA90001"}, "products.0.creation_source"),
    ("products_group", {"ids": ["MLA90001"]}, "products_group.0.creation_source"),
    ("products_families", {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_id": "60249"}]},
     "products_families.0.creation_source"),
    ("products", {"creation_source": "DEFAULT"}, "products.0.id"),
    ("products_families", {"domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT"},
     "products_families.0.attributes"),
])
def test_required_fields_missing_is_400(client, element_key, element, field):
    body = assert_error(post(client, {element_key: [element]}), 400, "validation_error")
    assert any(c["field"] == field and c["code"] == "required" for c in body["cause"]), body


def test_unknown_creation_source_is_400(client):
    body = assert_error(post(client, {"products": [product("MLA90001", source="MAGIC")]}), 400, "validation_error")
    assert body["cause"][0]["field"] == "products.0.creation_source"


@pytest.mark.parametrize("body, field", [
    ({"products": [product("mla90001")]}, "products.0.id"),
    ({"products_group": [{"ids": ["MLA-90001"], "creation_source": "DEFAULT"}]}, "products_group.0.ids.0"),
    ({"products_families": [family(domain="CARS", BRAND={"value_id": "60249"})]}, "products_families.0.domain_id"),
])
def test_identifier_format_wrong_is_400(client, body, field):
    response = assert_error(post(client, body), 400, "validation_error")
    assert response["cause"][0]["field"] == field


def test_malformed_item_id_is_400(client):
    assert_error(post(client, {"products": [product("MLA90001")]}, item_id="100"), 400, "invalid_item_id")


def test_more_than_200_products_is_400_before_any_lookup(client, run_db):
    ids = [f"MLA{n}" for n in range(500000, 500201)]
    body = assert_error(post(client, {"products_group": [{"ids": ids, "creation_source": "DEFAULT"}]}),
                        400, "too_many_products")
    assert "200" in body["message"]


def test_products_selected_by_families_count_toward_the_limit(app, client, run_db):
    app.config["COMPAT_MAX_PRODUCTS_PER_REQUEST"] = 14
    response = post(client, {"products": [product("MLA90013"), product("MLA90014"), product("MLA90015")],
                             "products_families": [family(BRAND={"value_name": "Volkswagen"})]})
    assert_error(response, 400, "too_many_products")
    # Products both named and selected count once: 12 + 2 already in the family.
    ok = post(client, {"products": [product("MLA90001"), product("MLA90013"), product("MLA90014")],
                       "products_families": [family(BRAND={"value_name": "Volkswagen"})]})
    assert ok.status_code == 200 and ok.get_json()["created_compatibilities_count"] == 14


def test_a_family_above_the_limit_is_400(app, client):
    app.config["COMPAT_MAX_PRODUCTS_PER_REQUEST"] = 11
    body = assert_error(post(client, {"products_families": [family(BRAND={"value_id": "60249"})]}),
                        400, "too_many_products")
    assert "products_families.0" in body["message"]


def test_more_than_10_families_is_400(client):
    families = [family(VEHICLE_YEAR={"value_id": "2010"}) for _ in range(11)]
    body = assert_error(post(client, {"products_families": families}), 400, "too_many_families")
    assert "10" in body["message"]


@pytest.mark.parametrize("product_id, code, in_message", [
    ("MLB90001", "site_mismatch", "MLB90001"),
    ("MLA8001", "not_child_product", "MLA8001"),
    ("MLA70001", "domain_not_compatible", "MLA-BRAKE_PADS"),
], ids=["another_site", "parent_product", "domain_the_item_is_not_compatible_with"])
def test_product_that_cannot_be_added_is_400(client, product_id, code, in_message):
    body = assert_error(post(client, {"products": [product(product_id)]}), 400, code)
    assert in_message in body["message"]


@pytest.mark.parametrize("domain, brand, code", [
    ("MLB-CARS_AND_VANS", "60249", "site_mismatch"),
    ("MLA-SPARK_PLUGS", "1", "domain_not_compatible"),
], ids=["domain_of_another_site", "incompatible_domain"])
def test_family_that_cannot_be_added_is_400(client, domain, brand, code):
    response = post(client, {"products_families": [family(domain=domain, BRAND={"value_id": brand})]})
    assert_error(response, 400, code)


def test_only_extension_rules_support_loading(client):
    assert_error(post(client, {"products": [product("MLA60001")]}), 400, "domain_not_compatible")


def test_category_without_configured_compatibilities_is_400(client):
    body = assert_error(post(client, {"products": [product("MLA90001")]}, item_id="MLA104"),
                        400, "category_not_configured")
    assert "MLA9999" in body["message"]


def test_family_selecting_no_product_is_400_naming_it(client):
    body = assert_error(post(client, {"products_families": [
        family(MODEL={"value_name": "Gol"}), family(BRAND={"value_name": "Fiat"})]}), 400, "family_without_products")
    assert "products_families.1" in body["message"] and "Fiat" in body["message"]


def test_unknown_product_is_404_and_nothing_is_written(client):
    body = assert_error(post(client, {"products": [product("MLA90001"), product("MLA99999")]}),
                        404, "product_not_found")
    assert "MLA99999" in body["message"]
    assert products_of(client) == []


def test_unknown_family_domain_is_404(client):
    response = post(client, {"products_families": [family(domain="MLA-TRUCKS", BRAND={"value_id": "1"})]})
    assert_error(response, 404, "domain_not_found")


def test_unknown_item_is_404(client):
    assert_error(post(client, {"products": [product("MLA90001")]}, item_id="MLA999"), 404, "item_not_found")


def test_missing_or_invalid_token_is_403(client):
    assert_error(client.post(url(), json={"products": [product("MLA90001")]}), 403, "invalid_token")
    assert_error(post(client, {"products": [product("MLA90001")]}, headers={"Authorization": "Bearer nope"}),
                 403, "invalid_token")


def test_caller_who_is_not_the_seller_is_403(client):
    assert_error(post(client, {"products": [product("MLA90001")]}, headers=OTHER_H), 403, "forbidden")
    assert_error(post(client, {"products": [product("MLA90001")]}, headers=MLB_H), 403, "forbidden")


def test_notes_where_the_category_disables_them_are_400(client):
    body = assert_error(post(client, {"products": [product("MLA90001", note="Solo ABS")]}, item_id="MLA103"),
                        400, "notes_disabled")
    assert "MLA6520" in body["message"]


def test_restrictions_where_the_category_disables_them_are_400(client):
    response = post(client, {"products": [product("MLA90001", restrictions=position([{"value_id": "13701104",
                                                                                       "value_name": "x"}]))]},
                    item_id="MLA103")
    assert_error(response, 400, "restrictions_disabled")


def test_note_longer_than_500_characters_is_400(client):
    body = assert_error(post(client, {"products": [product("MLA90001", note="x" * 501)]}), 400, "validation_error")
    assert body["cause"][0]["field"] == "products.0.note"
    assert post(client, {"products": [product("MLA90001", note="x" * 500)]}).status_code == 200


def test_specific_compatibility_on_a_universal_item_is_400(client):
    body = assert_error(post(client, {"products": [product("MLA90001")]}, item_id="MLA102"), 400, "item_is_universal")
    assert "universal" in body["message"]


def test_per_item_limit_is_checked_and_nothing_is_written(app, client):
    app.config["COMPAT_MAX_PER_ITEM"] = 5
    assert post(client, {"products": [product(p) for p in GOL[:4]]}).status_code == 200
    response = post(client, {"products": [product(p) for p in GOL[4:]]})
    assert_error(response, 400, "too_many_compatibilities")
    assert products_of(client) == sorted(GOL[:4])


def test_unknown_body_field_is_400(client):
    assert_error(post(client, {"products": [product("MLA90001")], "vehicles": []}), 400, "validation_error")


def test_family_value_forms(client):
    response = post(client, {"products_families": [
        family(BRAND={"value_name": "VOLKSWAGEN"}, MODEL={"value_ids": ["62109", "62110"]},
               VEHICLE_YEAR={"value_id": "2010"})]})
    assert response.get_json()["created_compatibilities_count"] == 4
    assert products_of(client) == VW[:4]


def test_a_family_write_reads_its_products_once(client, statements):
    """The family's selection answers each product's key with its id (plans.Entry), so the
    write looks no product up again before it inserts."""
    response = post(client, {"products_families": [family(MODEL={"value_name": "Gol"})]})
    assert response.get_json() == {"created_compatibilities_count": len(GOL)}
    reads = [sql for sql in statements if re.search(r'(FROM|JOIN) "product"(?!_)', sql)]
    assert len(reads) == 1 and "product_attribute" in reads[0], reads
    assert products_of(client) == sorted(GOL)
