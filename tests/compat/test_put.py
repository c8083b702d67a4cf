"""Endpoint 10: create, update and delete in one transaction, with the echo."""
import pytest

from app.models import RestrictionAttribute, RestrictionValue
from tests.compat.compat_data import (
    FRONT,
    GOL,
    OTHER_H,
    REAR,
    SELLER_H,
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
    load_bundle(full_bundle(compatibilities=[
        compat("MLA100", "MLA90001", note="Aprobada", note_status="APPROVED", restrictions=position([FRONT])),
        compat("MLA100", "MLA90002"),
        compat("MLA100", "MLA90003", source="CATALOGO"),
        compat("MLA103", "MLA90001")]))


def put(client, body, item_id="MLA100", headers=SELLER_H):
    return client.put(url(item_id), json=body, headers=headers)


def rows(run_db, item_id="MLA100"):
    return run_db(lambda: {c.product_id: c for c in compatibility_rows(item_id)})


def test_create_update_and_delete_in_one_call_with_the_echo(client, run_db):
    response = put(client, {
        "create": {"products": [product("MLA90005", note="Nueva", restrictions=position([FRONT, REAR]))]},
        "update": {"products": [{"id": "MLA90002", "restrictions": position([REAR], [FRONT])}]},
        "delete": {"products": [{"id": "MLA90001"}]}})
    assert response.status_code == 200, response.get_json()
    echo = response.get_json()
    assert set(echo) == {"create", "update", "delete"}
    assert all(section["universal"] is False for section in echo.values())
    codes = run_db(lambda: {v.value_id: v.id for v in RestrictionValue.select()})
    attribute_code = run_db(lambda: RestrictionAttribute.get(RestrictionAttribute.attribute_id == "POSITION").id)
    created = echo["create"]["products"][0]
    assert created["id"] == "MLA90005" and created["note"] == "Nueva"
    assert created["restrictions"][0]["attribute_code"] == attribute_code
    assert [v["value_code"] for v in created["restrictions"][0]["attribute_values"][0]["values"]] == [
        codes[FRONT["value_id"]], codes[REAR["value_id"]]]
    updated = echo["update"]["products"][0]["restrictions"][0]
    assert [g["values"][0]["value_code"] for g in updated["attribute_values"]] == [
        codes[REAR["value_id"]], codes[FRONT["value_id"]]]
    assert echo["delete"]["products"] == [{"id": "MLA90001"}]
    after = rows(run_db)
    assert sorted(after) == ["MLA90002", "MLA90003", "MLA90005"]
    assert after["MLA90005"].note_status == "PENDING"
    assert len(after["MLA90002"].restrictions[0]["attribute_values"]) == 2


def test_update_with_empty_note_and_restrictions_removes_them(client, run_db):
    response = put(client, {"update": {"products": [{"id": "MLA90001", "note": "", "restrictions": []}]}})
    assert response.status_code == 200, response.get_json()
    row = rows(run_db)["MLA90001"]
    assert row.note is None and row.note_status is None and row.restrictions is None
    entry = next(p for p in listing(client)["products"] if p["catalog_product_id"] == "MLA90001")
    assert "restrictions" not in entry and entry["note"] == ""


def test_changed_note_goes_back_to_pending_and_unchanged_keeps_its_status(client, run_db):
    put(client, {"update": {"products": [{"id": "MLA90001", "note": "Aprobada"}]}})
    assert rows(run_db)["MLA90001"].note_status == "APPROVED"
    put(client, {"update": {"products": [{"id": "MLA90001", "note": "Cambiada"}]}})
    row = rows(run_db)["MLA90001"]
    assert row.note == "Cambiada" and row.note_status == "PENDING"


def test_update_by_family_changes_only_the_items_compatibilities(client, run_db):
    response = put(client, {"update": {"products_families": [
        {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "MODEL", "value_name": "gol"}], "note": "Gol"}]}})
    assert response.status_code == 200, response.get_json()
    after = rows(run_db)
    assert after["MLA90001"].note == "Gol" and after["MLA90002"].note == "Gol" and after["MLA90003"].note is None
    assert "MLA90005" not in after


def test_a_failing_part_writes_nothing(client, run_db):
    before = {pid: (c.note, c.restrictions) for pid, c in rows(run_db).items()}
    response = put(client, {"create": {"products": [product("MLA90009")]},
                            "delete": {"products": [{"id": "MLA90002"}]},
                            "update": {"products": [{"id": "MLA90020", "note": "x"}]}})
    error = assert_error(response, 404, "compatibility_not_found")
    assert "MLA90020" in error["message"]
    assert {pid: (c.note, c.restrictions) for pid, c in rows(run_db).items()} == before


def test_update_of_a_product_created_in_the_same_call_is_allowed(client, run_db):
    response = put(client, {"create": {"products": [product("MLA90009")]},
                            "update": {"products": [{"id": "MLA90009", "note": "Recién creada"}]}})
    assert response.status_code == 200, response.get_json()
    assert rows(run_db)["MLA90009"].note == "Recién creada"


def test_delete_of_a_product_the_item_lacks_is_404(client):
    assert_error(put(client, {"delete": {"products": [{"id": "MLA90020"}]}}), 404, "compatibility_not_found")


def test_delete_of_a_catalog_compatibility_is_403(client):
    assert_error(put(client, {"delete": {"products": [{"id": "MLA90003"}]}}), 403,
                 "catalog_compatibility_not_deletable")


def test_delete_by_family_skips_catalog_compatibilities(client, run_db):
    response = put(client, {"delete": {"products_families": [
        {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "VEHICLE_YEAR", "value_id": "2010"}]}]}})
    assert response.status_code == 200, response.get_json()
    assert sorted(rows(run_db)) == ["MLA90003"]


def test_create_requires_creation_source(client):
    error = assert_error(put(client, {"create": {"products": [{"id": "MLA90009"}]}}), 400, "validation_error")
    assert error["cause"][0]["field"] == "create.products.0.creation_source"


def test_create_naming_a_parent_product_is_400(client):
    assert_error(put(client, {"create": {"products": [product("MLA8001")]}}), 400, "not_child_product")


@pytest.mark.parametrize("body, status, error", [
    ({"create": {"products": [product("MLB90001")]}}, 400, "site_mismatch"),
    ({"create": {"products": [product("MLA70001")]}}, 400, "domain_not_compatible"),
    ({"create": {"products": [product("MLA99999")]}}, 404, "product_not_found"),
    ({"create": {"products": [product("MLA9-1")]}}, 400, "validation_error"),
    ({"update": {"products": [{"id": "bad"}]}}, 400, "validation_error"),
    ({"create": {"products_families": [family(BRAND={"value_name": "Fiat"})]}}, 400, "family_without_products"),
    ({}, 400, "validation_error"),
    ({"create": {"products": [product("MLA90009")]}, "replace": {}}, 400, "validation_error"),
])
def test_put_errors(client, body, status, error):
    assert_error(put(client, body), status, error)


def test_put_on_unknown_item_is_404(client):
    assert_error(put(client, {"create": {"products": [product("MLA90009")]}}, item_id="MLA404"), 404, "item_not_found")


def test_put_needs_the_seller(client):
    assert_error(put(client, {"create": {"products": [product("MLA90009")]}}, headers=OTHER_H), 403, "forbidden")
    assert_error(client.put(url(), json={"create": {}}), 403, "invalid_token")


def test_more_than_the_product_limit_across_sections_is_400(app, client, run_db):
    app.config["COMPAT_MAX_PRODUCTS_PER_REQUEST"] = 6
    response = put(client, {"create": {"products_families": [family(MODEL={"value_id": "62109"})]},
                            "delete": {"products": [{"id": "MLA90002"}]},
                            "update": {"products": [{"id": "MLA90003", "note": "x"}]}})
    assert_error(response, 400, "too_many_products")
    assert sorted(rows(run_db)) == ["MLA90001", "MLA90002", "MLA90003"]
    ok = put(client, {"create": {"products_families": [family(MODEL={"value_id": "62109"})]}})
    assert ok.status_code == 200 and sorted(rows(run_db)) == sorted(set(GOL) | {"MLA90003"})


def test_more_than_10_families_across_sections_is_400(client):
    fam = family(VEHICLE_YEAR={"value_id": "2010"})
    body = {"create": {"products_families": [fam] * 6},
            "delete": {"products_families": [{"domain_id": fam["domain_id"], "attributes": fam["attributes"]}] * 5}}
    assert_error(put(client, body), 400, "too_many_families")


def test_notes_in_update_where_the_category_disables_them_are_400(client):
    error = assert_error(put(client, {"update": {"products": [{"id": "MLA90001", "note": "x"}]}}, item_id="MLA103"),
                         400, "notes_disabled")
    assert "DISABLED" in error["message"]


def test_create_into_a_universal_item_is_400(client, load_bundle):
    client.delete(url("MLA102"), headers=SELLER_H)
    client.post(url("MLA102"), json={"universal": True}, headers=SELLER_H)
    assert_error(put(client, {"create": {"products": [product("MLA90009")]}}, item_id="MLA102"),
                 400, "item_is_universal")


def test_create_skips_products_the_item_has(client, run_db):
    response = put(client, {"create": {"products": [product("MLA90001", note="otra")]}})
    assert response.status_code == 200
    assert rows(run_db)["MLA90001"].note == "Aprobada"


def test_a_product_named_twice_in_update_takes_the_first_change(client, run_db):
    response = put(client, {"update": {
        "products": [{"id": "MLA90002", "note": "a"}, {"id": "MLA90002", "note": "b"}, {"id": "MLA90001", "note": "a"}],
        "products_families": [{"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "MODEL", "value_id": "62109"}],
                               "note": "b"}]}})
    assert response.status_code == 200, response.get_json()
    after = rows(run_db)
    assert (after["MLA90001"].note, after["MLA90002"].note, after["MLA90003"].note) == ("a", "a", None)


def test_more_than_200_named_products_is_400_before_any_lookup(client):
    ids = [{"id": f"MLA{n}"} for n in range(500000, 500201)]
    error = assert_error(put(client, {"update": {"products": ids[:150]}, "delete": {"products": ids[150:]}}),
                         400, "too_many_products")
    assert "200" in error["message"]


def test_create_echo_covers_groups_and_families(client):
    response = put(client, {"create": {
        "products_group": [{"ids": ["MLA90009", "MLA90010"], "creation_source": "DEFAULT",
                            "restrictions": position([REAR])}],
        "products_families": [{**family(MODEL={"value_name": "Hilux"}, VEHICLE_YEAR={"value_id": "2020"}),
                               "restrictions": position([FRONT])}]}})
    assert response.status_code == 200, response.get_json()
    create = response.get_json()["create"]
    assert create["universal"] is False
    assert create["products_group"][0]["ids"] == ["MLA90009", "MLA90010"]
    assert create["products_group"][0]["restrictions"][0]["attribute_code"] is not None
    fam = create["products_families"][0]
    assert fam["attributes"][0] == {"id": "MODEL", "value_name": "Hilux"}
    assert fam["restrictions"][0]["attribute_values"][0]["values"][0]["value_code"] is not None
    assert {"MLA90021", "MLA90022", "MLA90009"} <= {p["catalog_product_id"] for p in listing(client)["products"]}
