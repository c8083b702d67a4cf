"""A seller's own charts after creation: rename, permissions, add and complete rows, delete."""
import pytest

from tests.bundles import SELLER, TOKENS
from tests.charts.test_manage import OTHER, created, validation_errors, values
from tests.charts_data import charts_bundle, t_shirt_chart, t_shirt_row
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(charts_bundle())


def test_rename_changes_only_names(client):
    chart = created(client)
    response = client.put(f"/catalog/charts/{chart['id']}", json={"names": {"MLA": "Remeras nuevas"}}, headers=AUTH)
    assert response.status_code == 200
    assert response.get_json() == {**chart, "names": {"MLA": "Remeras nuevas"}}
    assert_error(client.put(f"/catalog/charts/{chart['id']}", json={"names": {"MLA": "a-b"}}, headers=AUTH),
                 400, "validation_error")
    assert_error(client.put(f"/catalog/charts/{chart['id']}", json={"names": {"MLA": "x"}, "rows": []},
                            headers=AUTH), 400, "validation_error")


def test_only_the_seller_manages_a_chart(client):
    chart_id = created(client)["id"]
    assert_error(client.put(f"/catalog/charts/{chart_id}", json={"names": {"MLA": "Mia"}}, headers=OTHER),
                 403, "forbidden")
    assert_error(client.post(f"/catalog/charts/{chart_id}/rows", json=t_shirt_row("L", "L"), headers=OTHER),
                 403, "forbidden")
    assert_error(client.delete(f"/catalog/charts/{chart_id}", headers=OTHER), 403, "forbidden")
    assert_error(client.get(f"/catalog/charts/{chart_id}", headers=OTHER), 403, "forbidden")


@pytest.mark.parametrize("chart_id", ["100", "200"])
def test_brand_and_standard_charts_are_read_only(client, chart_id):
    assert_error(client.put(f"/catalog/charts/{chart_id}", json={"names": {"MLA": "Mia"}}, headers=AUTH),
                 403, "chart_read_only")
    assert_error(client.delete(f"/catalog/charts/{chart_id}", headers=AUTH), 403, "chart_read_only")
    assert_error(client.post(f"/catalog/charts/{chart_id}/rows", json={"attributes": []}, headers=AUTH),
                 403, "chart_read_only")


def test_add_row_appends_a_validated_row(client):
    chart = created(client)
    response = client.post(f"/catalog/charts/{chart['id']}/rows", json=t_shirt_row("L", "L", "100 cm"),
                           headers=AUTH)
    assert response.status_code == 201
    assert response.get_json()["id"] == f"{chart['id']}:3"
    assert values(response.get_json())["SIZE"] == "L"
    again = client.post(f"/catalog/charts/{chart['id']}/rows", json=t_shirt_row("L", "L"), headers=AUTH)
    assert validation_errors(again) == {("duplicate_main_size", "rows[0].MANUFACTURER_SIZE")}
    bad = client.post(f"/catalog/charts/{chart['id']}/rows", json=t_shirt_row("XL", "XXL"), headers=AUTH)
    assert validation_errors(bad) == {("invalid_value", "rows[0].FILTRABLE_SIZE")}
    garment = client.post(f"/catalog/charts/{chart['id']}/rows", json=t_shirt_row("XL", "XL",
                          GARMENT_LENGTH_FROM="80 cm"), headers=AUTH)
    assert validation_errors(garment) == {("measure_type_mismatch", "rows[0].GARMENT_LENGTH_FROM")}


def test_add_row_beyond_75_is_refused(client):
    chart = created(client, t_shirt_chart(rows=[t_shirt_row(f"T{n}", "M") for n in range(75)]))
    response = client.post(f"/catalog/charts/{chart['id']}/rows", json=t_shirt_row("X", "M"), headers=AUTH)
    assert validation_errors(response) == {("too_many_rows", "rows")}


def test_update_row_adds_values_and_keeps_the_main_size(client):
    chart = created(client, t_shirt_chart(rows=[t_shirt_row("S", "S")]))
    row_id = chart["rows"][0]["id"]
    response = client.put(f"/catalog/charts/{chart['id']}/rows/{row_id}", headers=AUTH, json={"attributes": [
        {"id": "CHEST_CIRCUMFERENCE_FROM", "values": [{"name": "90 cm"}]}]})
    assert response.status_code == 200, response.get_json()
    assert values(response.get_json()) == {"MANUFACTURER_SIZE": "S", "FILTRABLE_SIZE": "S",
                                           "CHEST_CIRCUMFERENCE_FROM": "90 cm", "SIZE": "S"}
    change = client.put(f"/catalog/charts/{chart['id']}/rows/{row_id}", headers=AUTH, json={"attributes": [
        {"id": "MANUFACTURER_SIZE", "values": [{"name": "M"}]}]})
    assert validation_errors(change) == {("main_size_immutable", "rows[0].MANUFACTURER_SIZE")}
    bad = client.put(f"/catalog/charts/{chart['id']}/rows/{row_id}", headers=AUTH, json={"attributes": [
        {"id": "CHEST_CIRCUMFERENCE_FROM", "values": [{"name": "90"}]}]})
    assert validation_errors(bad) == {("invalid_number_unit", "rows[0].CHEST_CIRCUMFERENCE_FROM")}
    stored = client.get(f"/catalog/charts/{chart['id']}", headers=AUTH).get_json()["rows"][0]
    assert values(stored)["CHEST_CIRCUMFERENCE_FROM"] == "90 cm"


def test_update_unknown_row_is_404(client):
    chart = created(client)
    assert_error(client.put(f"/catalog/charts/{chart['id']}/rows/{chart['id']}:9", headers=AUTH,
                            json={"attributes": []}), 404, "chart_row_not_found")


def test_delete_an_unused_chart(client, run_db):
    chart = created(client)
    response = client.delete(f"/catalog/charts/{chart['id']}", headers=AUTH)
    assert response.status_code == 200 and response.get_json() == {"id": chart["id"], "deleted": True}
    assert_error(client.get(f"/catalog/charts/{chart['id']}", headers=AUTH), 404, "chart_not_found")
    from app.models import ChartFilterValue, ChartRow

    assert run_db(lambda: ChartRow.select().where(ChartRow.chart == chart["id"]).count()) == 0
    assert run_db(lambda: ChartFilterValue.select().where(ChartFilterValue.chart == chart["id"]).count()) == 0


def test_delete_a_chart_that_a_listing_uses_is_refused(client):
    body = assert_error(client.delete("/catalog/charts/300", headers=AUTH), 409, "chart_in_use")
    assert "MLA500" in body["cause"][0]["message"]
    assert client.get("/catalog/charts/300", headers=AUTH).status_code == 200
    assert client.delete("/catalog/charts/302", headers=AUTH).status_code == 200


def test_manage_unknown_chart_is_404(client):
    assert_error(client.delete("/catalog/charts/999", headers=AUTH), 404, "chart_not_found")
    assert_error(client.post("/catalog/charts/999/rows", json={"attributes": []}, headers=AUTH),
                 404, "chart_not_found")
