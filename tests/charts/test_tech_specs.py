"""The domain sheet (23) and the chart sheet (24) from the stored technical specs."""
import pytest

from tests.bundles import SELLER, TOKENS
from tests.charts_data import KIDS, MEN, WOMEN, charts_bundle
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])
GRIDS = "/domains/MLA-SNEAKERS/technical_specs?section=grids"


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(charts_bundle())


def sheet_attribute_ids(sheet):
    found = []

    def walk(components):
        for component in components or ():
            found.extend(a["id"] for a in component.get("attributes") or ())
            walk(component.get("components"))

    for group in sheet["input"]["groups"]:
        walk(group["components"])
    return found


def test_domain_sheet_is_the_stored_specifications_sheet(client):
    response = client.get("/domains/MLA-SNEAKERS/technical_specs", headers=AUTH)
    assert response.status_code == 200
    sheet = response.get_json()
    assert sheet["output"] == {}
    group = sheet["input"]["groups"][0]
    assert group["section"] == "SPECIFICATIONS" and group["id"] == "MAIN"
    assert sheet_attribute_ids(sheet) == ["GENDER", "BRAND", "COLOR", "SIZE_GRID_ID", "SIZE_GRID_ROW_ID"]
    gender = group["components"][0]["attributes"][0]
    assert gender["value_type"] == "list" and "grid_template_required" in gender["tags"]
    assert {"id": MEN, "name": "Hombre"} in [{"id": v["id"], "name": v["name"]} for v in gender["values"]]


def test_domain_sheet_links_charts_by_grid_id_and_rows_by_grid_row_id(client):
    sheet = client.get("/domains/MLA-SNEAKERS/technical_specs", headers=AUTH).get_json()
    link = sheet["input"]["groups"][0]["components"][3]["attributes"]
    assert [(a["id"], a["value_type"]) for a in link] == [("SIZE_GRID_ID", "grid_id"),
                                                        ("SIZE_GRID_ROW_ID", "grid_row_id")]
    assert "variation_attribute" in link[1]["tags"]


def test_domain_sheet_of_an_unknown_domain_is_404(client):
    assert_error(client.get("/domains/MLA-NOPE/technical_specs", headers=AUTH), 404, "domain_not_found")


def test_domain_sheet_of_a_domain_without_specs_is_404(client):
    assert_error(client.get("/domains/MLA-BOOTS/technical_specs", headers=AUTH), 404, "technical_specs_not_found")


def test_chart_sheet_picks_the_grids_sheet_of_the_values_sent(client):
    men = client.post(GRIDS, json={"attributes": [{"id": "GENDER", "value_id": MEN},
                                                  {"id": "BRAND", "value_name": "adidas"}]}, headers=AUTH)
    assert men.status_code == 200, men.get_json()
    group = men.get_json()["input"]["groups"][0]
    assert group["section"] == "GRIDS"
    grid = group["components"][0]
    assert grid["component"] == "GRID" and grid["ui_config"]["max_allowed"] == 75
    assert [a["id"] for a in grid["components"][0]["attributes"]] == ["EU_SIZE", "AR_SIZE", "FOOT_LENGTH"]


def mark_women_sheet():
    """Two sheets (men, women) differ only by `when`: tell them apart through a stored label."""
    from app.models import TechnicalSpec

    sheet = next(sheet for sheet in TechnicalSpec.select().where(TechnicalSpec.section == "GRIDS")
                 if sheet.domain_id == "MLA-SNEAKERS" and sheet.when == {"GENDER": WOMEN})
    sheet.input["groups"][0]["label"] = "Mujer"
    sheet.save()


def sheet_label(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()["input"]["groups"][0]["label"]


def test_chart_sheet_with_a_value_id_picks_that_values_sheet(client, run_db):
    run_db(mark_women_sheet)
    women = client.post(GRIDS, json={"attributes": [{"id": "GENDER", "value_id": WOMEN},
                                                    {"id": "BRAND", "value_name": "x"}]}, headers=AUTH)
    men = client.post(GRIDS, json={"attributes": [{"id": "GENDER", "value_id": MEN},
                                                  {"id": "BRAND", "value_name": "x"}]}, headers=AUTH)
    assert sheet_label(women) == "Mujer" and sheet_label(men) != "Mujer"


def test_chart_sheet_matches_value_names_case_insensitively(client, run_db):
    run_db(mark_women_sheet)
    for name in ("MUJER", "mujer", "Mujer"):
        response = client.post(GRIDS, json={"attributes": [{"id": "GENDER", "values": [{"name": name}]},
                                                           {"id": "BRAND", "value_name": "Nike"}]}, headers=AUTH)
        assert sheet_label(response) == "Mujer"
    men = client.post(GRIDS, json={"attributes": [{"id": "GENDER", "value_name": "hombre"},
                                                  {"id": "BRAND", "value_name": "x"}]}, headers=AUTH)
    assert sheet_label(men) != "Mujer"


def test_chart_sheet_requires_every_grid_template_required_attribute(client):
    body = assert_error(client.post(GRIDS, json={"attributes": [{"id": "GENDER", "value_id": MEN}]},
                                    headers=AUTH), 400, "missing_required_attributes")
    assert "BRAND" in body["message"] and "GENDER" not in body["message"]
    body = assert_error(client.post(GRIDS, json={"attributes": []}, headers=AUTH), 400,
                        "missing_required_attributes")
    assert "GENDER" in body["message"] and "BRAND" in body["message"]
    assert len(body["cause"]) == 2


def test_chart_sheet_counts_an_attribute_without_value_as_missing(client):
    body = assert_error(client.post(GRIDS, json={"attributes": [{"id": "GENDER"}, {"id": "BRAND",
                                                                                   "value_name": "x"}]},
                                    headers=AUTH), 400, "missing_required_attributes")
    assert "GENDER" in body["message"]


def test_chart_sheet_without_a_matching_sheet_is_chart_tech_specs_not_found(client):
    for gender in ({"value_id": KIDS}, {"value_name": "Unisex"}):
        assert_error(client.post(GRIDS, json={"attributes": [{"id": "GENDER", **gender},
                                                             {"id": "BRAND", "value_name": "x"}]},
                                 headers=AUTH), 404, "chart_tech_specs_not_found")


def test_chart_sheet_of_a_domain_without_grids_is_chart_tech_specs_not_found(client):
    assert_error(client.post("/domains/MLA-BOOTS/technical_specs?section=grids", json={"attributes": []},
                             headers=AUTH), 404, "chart_tech_specs_not_found")


def test_chart_sheet_of_an_unknown_domain_is_404(client):
    assert_error(client.post("/domains/MLA-NOPE/technical_specs?section=grids", json={"attributes": []},
                             headers=AUTH), 404, "domain_not_found")


def test_chart_sheet_needs_section_grids(client):
    for path in ("/domains/MLA-SNEAKERS/technical_specs", "/domains/MLA-SNEAKERS/technical_specs?section=x"):
        body = assert_error(client.post(path, json={"attributes": []}, headers=AUTH), 400, "validation_error")
        assert body["cause"][0]["field"] == "section"


def test_chart_sheet_accepts_the_attribute_shape_of_the_spec(client):
    attributes = [{"id": "GENDER", "name": "Género", "value_id": MEN, "value_name": "Hombre", "value_struct": None,
                   "values": [{"id": MEN, "name": "Hombre", "struct": None}],
                   "attribute_group_id": "OTHERS", "attribute_group_name": "Otros"},
                  {"id": "BRAND", "value_id": None, "value_name": "adidas"}]
    assert client.post(GRIDS, json={"attributes": attributes}, headers=AUTH).status_code == 200


def test_chart_sheet_rejects_unknown_fields(client):
    body = assert_error(client.post(GRIDS, json={"attributes": [{"id": "GENDER", "colour": 1}]}, headers=AUTH),
                        400, "validation_error")
    assert body["cause"][0]["field"] == "attributes.0.colour"


def test_tops_chart_sheet_has_filtrable_size_with_the_allowed_values(client):
    response = client.post("/domains/MLA-T_SHIRTS/technical_specs?section=grids",
                           json={"attributes": [{"id": "GENDER", "value_name": "Hombre"}]}, headers=AUTH)
    assert response.status_code == 200
    row = response.get_json()["input"]["groups"][0]["components"][0]["components"][0]
    filtrable = next(a for a in row["attributes"] if a["id"] == "FILTRABLE_SIZE")
    assert filtrable["value_type"] == "list"
    assert {"required", "variation_attribute", "read_only", "hidden", "vip_hidden"} <= set(filtrable["tags"])
    assert [v["name"] for v in filtrable["values"]] == ["S", "M", "L", "XL"]
    garment = next(a for a in row["attributes"] if a["id"] == "GARMENT_LENGTH_FROM")
    assert garment["value_type"] == "number_unit" and garment["default_unit_id"] == "cm"
    assert "CLOTHING_MEASURE" in garment["tags"]
