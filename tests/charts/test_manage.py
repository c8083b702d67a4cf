"""A seller's own charts (decisions.md): create, read, rename, add and complete rows, delete."""
import pytest

from tests.bundles import OTHER_SELLER, SELLER, TOKENS
from tests.charts_data import MEN, charts_bundle, t_shirt_chart, t_shirt_row
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])
OTHER = bearer(TOKENS[OTHER_SELLER])


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(charts_bundle())


def create(client, body=None, headers=AUTH):
    return client.post("/catalog/charts", json=body or t_shirt_chart(), headers=headers)


def created(client, body=None):
    response = create(client, body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def validation_errors(response):
    body = assert_error(response, 400, "chart_validation_error")
    assert body["errors"] and all(set(e) == {"code", "message", "cell"} for e in body["errors"])
    assert [c["field"] for c in body["cause"]] == [e["cell"] for e in body["errors"]]
    return {(e["code"], e["cell"]) for e in body["errors"]}


def values(row):
    return {a["id"]: a["values"][0]["name"] for a in row["attributes"]}


def chart_count(run_db):
    from app.models import Chart, ChartRow

    return run_db(lambda: (Chart.select().count(), ChartRow.select().count()))


def test_create_answers_the_whole_specific_chart_of_the_caller(client):
    chart = created(client)
    assert chart["type"] == "SPECIFIC" and chart["seller_id"] == SELLER and chart["site_id"] == "MLA"
    assert chart["domain_id"] == "T_SHIRTS" and chart["main_attribute_id"] == "MANUFACTURER_SIZE"
    assert chart["measure_type"] == "BODY_MEASURE" and chart["names"] == {"MLA": "Remeras Sur hombre"}
    assert [r["id"] for r in chart["rows"]] == [f"{chart['id']}:1", f"{chart['id']}:2"]
    assert values(chart["rows"][0]) == {"MANUFACTURER_SIZE": "S", "FILTRABLE_SIZE": "S",
                                        "CHEST_CIRCUMFERENCE_FROM": "88 cm", "SIZE": "S"}
    gender = next(a for a in chart["attributes"] if a["id"] == "GENDER")
    assert gender["values"][0]["id"] == MEN and gender["values"][0]["name"] == "Hombre"


def test_created_chart_is_read_back_and_found_by_search(client):
    chart = created(client)
    assert client.get(f"/catalog/charts/{chart['id']}", headers=AUTH).get_json() == chart
    found = client.post("/catalog/charts/search", headers=AUTH, json={
        "domain_id": "T_SHIRTS", "site_id": "MLA", "seller_id": SELLER, "type": "SPECIFIC",
        "attributes": [{"id": "GENDER", "values": [{"name": "hombre"}]}]}).get_json()
    assert [c["id"] for c in found["charts"]] == [chart["id"]]


def test_number_unit_values_get_a_struct(client):
    row = created(client)["rows"][0]
    chest = next(a for a in row["attributes"] if a["id"] == "CHEST_CIRCUMFERENCE_FROM")
    assert chest["values"][0]["struct"] == {"number": 88.0, "unit": "cm"}


def test_filtrable_size_must_be_an_allowed_value_of_the_sheet(client, run_db):
    before = chart_count(run_db)
    body = t_shirt_chart(rows=[t_shirt_row("S", "S"), t_shirt_row("Grande", "XXL")])
    assert validation_errors(create(client, body)) == {("invalid_value", "rows[1].FILTRABLE_SIZE")}
    assert chart_count(run_db) == before


def test_filtrable_size_is_required_in_tops(client):
    row = {"attributes": [{"id": "MANUFACTURER_SIZE", "values": [{"name": "S"}]}]}
    errors = validation_errors(create(client, t_shirt_chart(rows=[row])))
    assert errors == {("missing_required_value", "rows[0].FILTRABLE_SIZE")}


def test_bottoms_use_their_own_filtrable_sizes(client):
    body = t_shirt_chart(domain_id="PANTS", names={"MLA": "Pantalones Sur"},
                         rows=[t_shirt_row("40", "40"), t_shirt_row("M", "M")])
    assert validation_errors(create(client, body)) == {("invalid_value", "rows[1].FILTRABLE_SIZE")}
    body["rows"] = [t_shirt_row("40", "40", WAIST_CIRCUMFERENCE_FROM="80 cm")]
    assert created(client, body)["measure_type"] == "BODY_MEASURE"


def test_number_unit_values_need_a_number_and_a_known_unit(client):
    rows = [t_shirt_row("S", "S", "88"), t_shirt_row("M", "M", "94 km"), t_shirt_row("L", "L", "ancho cm")]
    assert validation_errors(create(client, t_shirt_chart(rows=rows))) == {
        ("invalid_number_unit", "rows[0].CHEST_CIRCUMFERENCE_FROM"),
        ("invalid_unit", "rows[1].CHEST_CIRCUMFERENCE_FROM"),
        ("invalid_number_unit", "rows[2].CHEST_CIRCUMFERENCE_FROM")}


def test_units_are_matched_by_id_or_name(client):
    chart = created(client, t_shirt_chart(rows=[t_shirt_row("S", "S", "35,5 pulgadas")]))
    chest = next(a for a in chart["rows"][0]["attributes"] if a["id"] == "CHEST_CIRCUMFERENCE_FROM")
    assert chest["values"][0] == {"id": None, "name": "35.5 in", "struct": {"number": 35.5, "unit": "in"}}


@pytest.mark.parametrize("rows, errors", [
    ([t_shirt_row("S", "S", "88 cm"), t_shirt_row("M", "M", GARMENT_LENGTH_FROM="70 cm")],
     {("mixed_measure_types", "rows[1].GARMENT_LENGTH_FROM")}),
    ([t_shirt_row("S", "S", FOOT_LENGTH="25 cm")], {("unknown_attribute", "rows[0].FOOT_LENGTH")}),
    ([t_shirt_row("S", "S", GENDER="Hombre")], {("attribute_not_allowed_in_row", "rows[0].GENDER")}),
    ([t_shirt_row("S", "S"), {"attributes": [{"id": "FILTRABLE_SIZE", "values": [{"name": "M"}]}]}],
     {("missing_main_attribute", "rows[1].MANUFACTURER_SIZE")}),
    ([t_shirt_row("S", "S"), t_shirt_row("s", "M")], {("duplicate_main_size", "rows[1].MANUFACTURER_SIZE")}),
    ([t_shirt_row("S" * 256, "S")], {("value_too_long", "rows[0].MANUFACTURER_SIZE")}),
    ([t_shirt_row("S", "S", SIZE_GRID_ROW_ID="1:1")], {("attribute_not_allowed_in_row", "rows[0].SIZE_GRID_ROW_ID")}),
], ids=["body_and_garment_measures_are_not_mixed", "attributes_must_exist_in_the_sheet",
        "chart_level_attributes_are_not_repeated_in_rows", "main_attribute_is_required_in_every_row",
        "main_sizes_are_not_repeated", "values_are_at_most_value_max_length",
        "listing_link_attributes_are_not_chart_values"])
def test_row_problems_are_validation_errors(client, rows, errors):
    assert validation_errors(create(client, t_shirt_chart(rows=rows))) == errors


def test_garment_measure_chart(client):
    rows = [t_shirt_row("S", "S", GARMENT_LENGTH_FROM="70 cm")]
    assert created(client, t_shirt_chart(rows=rows))["measure_type"] == "CLOTHING_MEASURE"
    body = t_shirt_chart(rows=[t_shirt_row("S", "S", "88 cm")], measure_type="CLOTHING_MEASURE")
    assert validation_errors(create(client, body)) == {
        ("measure_type_mismatch", "rows[0].CHEST_CIRCUMFERENCE_FROM")}


def test_main_attribute_must_be_a_candidate_of_the_sheet(client):
    body = t_shirt_chart(main_attribute={"attributes": [{"site_id": "MLA", "id": "CHEST_CIRCUMFERENCE_FROM"}]})
    assert ("invalid_main_attribute", "main_attribute") in validation_errors(create(client, body))
    body = t_shirt_chart(main_attribute={"attributes": [{"site_id": "MLA", "id": "NOPE"}]})
    assert ("unknown_attribute", "main_attribute") in validation_errors(create(client, body))


def test_at_most_75_rows(client):
    rows = [t_shirt_row(f"T{n}", "M") for n in range(76)]
    assert validation_errors(create(client, t_shirt_chart(rows=rows))) == {("too_many_rows", "rows")}
    assert len(created(client, t_shirt_chart(rows=rows[:75]))["rows"]) == 75


def test_a_chart_needs_rows(client):
    assert validation_errors(create(client, t_shirt_chart(rows=[]))) == {("rows_required", "rows")}


def test_grid_template_required_attributes_pick_the_sheet(client):
    body = t_shirt_chart(attributes=[{"id": "BRAND", "values": [{"name": "Sur"}]}])
    assert validation_errors(create(client, body)) == {("missing_required_attribute", "attributes.GENDER")}
    body = t_shirt_chart(attributes=[{"id": "GENDER", "values": [{"name": "Niños"}]}])
    assert validation_errors(create(client, body)) == {("chart_sheet_not_found", "attributes")}


def test_chart_level_values_of_list_attributes_are_checked(client):
    body = t_shirt_chart(attributes=[{"id": "GENDER", "values": [{"id": MEN}]},
                                     {"id": "COLOR", "values": [{"name": "Rojo"}]}])
    assert validation_errors(create(client, body)) == {("not_a_chart_attribute", "attributes.COLOR")}


def test_every_problem_is_reported_at_once(client):
    rows = [t_shirt_row("S", "XXL", "88"), t_shirt_row("S", "M", NOPE="1")]
    codes = {code for code, _ in validation_errors(create(client, t_shirt_chart(rows=rows)))}
    assert codes == {"invalid_value", "invalid_number_unit", "unknown_attribute", "duplicate_main_size"}


@pytest.mark.parametrize("name", ["x" * 61, "Remeras (hombre)", "Remeras - hombre", "  "])
def test_names_are_at_most_60_characters_without_parentheses_or_dashes(client, name):
    body = assert_error(create(client, t_shirt_chart(names={"MLA": name})), 400, "validation_error")
    assert body["cause"][0]["field"].startswith("names")


def test_names_need_the_charts_site(client):
    errors = validation_errors(create(client, t_shirt_chart(names={"MLB": "Camisetas"})))
    assert errors == {("missing_name", "names.MLA")}


def test_create_in_a_domain_not_active_is_domain_not_active(client):
    assert_error(create(client, t_shirt_chart(domain_id="BOOTS")), 400, "domain_not_active")


def test_create_rejects_other_types_and_unknown_fields(client):
    assert_error(create(client, t_shirt_chart(type="BRAND")), 400, "validation_error")
    assert_error(create(client, t_shirt_chart(seller_id=SELLER)), 400, "validation_error")


def test_an_attribute_is_given_once_per_row_with_a_value(client):
    row = t_shirt_row("S", "S", "88 cm")
    row["attributes"].append({"id": "CHEST_CIRCUMFERENCE_FROM", "values": [{"name": "90 cm"}]})
    empty = t_shirt_row("M", "M")
    empty["attributes"].append({"id": "GARMENT_LENGTH_FROM", "values": []})
    assert validation_errors(create(client, t_shirt_chart(rows=[row, empty]))) == {
        ("duplicate_attribute", "rows[0].CHEST_CIRCUMFERENCE_FROM"), ("missing_value", "rows[1].GARMENT_LENGTH_FROM")}


def test_create_in_an_unknown_site_is_404(client):
    assert_error(create(client, t_shirt_chart(site_id="XXX", names={"XXX": "Remeras"})), 404, "site_not_found")
