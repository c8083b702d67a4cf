"""Chart search (endpoint 25): mandatory fields, caller, type and attribute filters, paging."""
import pytest

from tests.bundles import OTHER_SELLER, SELLER, TOKENS
from tests.charts_data import MEN, MLU_SELLER, MLU_TOKEN, WOMEN, charts_bundle
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])
MEN_ADIDAS = [{"id": "GENDER", "values": [{"name": "Hombre"}]}, {"id": "BRAND", "values": [{"name": "adidas"}]}]


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(charts_bundle())


def search(client, headers=AUTH, query=None, **fields):
    body = {"domain_id": "SNEAKERS", "site_id": "MLA", "seller_id": SELLER, "attributes": MEN_ADIDAS, **fields}
    return client.post("/catalog/charts/search", json=body, headers=headers, query_string=query)


def ids(response):
    assert response.status_code == 200, response.get_json()
    return [chart["id"] for chart in response.get_json()["charts"]]


def test_search_without_type_returns_brand_standard_and_the_callers_specific_charts(client):
    # Nike (101) is another brand; 301 is another seller's; 303 carries another brand.
    assert ids(search(client)) == ["100", "200", "201", "300"]


def test_search_results_are_charts_with_attributes_and_empty_rows(client):
    chart = search(client).get_json()["charts"][0]
    assert chart["id"] == "100" and chart["type"] == "BRAND" and chart["domain_id"] == "SNEAKERS"
    assert chart["names"] == {"MLA": "Guia 100 Hombre"} and chart["main_attribute_id"] == "EU_SIZE"
    assert chart["rows"] == []
    assert {a["id"] for a in chart["attributes"]} == {"GENDER", "BRAND"}


@pytest.mark.parametrize("chart_type, expected", [
    ("BRAND", ["100"]), ("STANDARD", ["200", "201"]), ("SPECIFIC", ["300"])])
def test_type_filter_narrows_to_that_type(client, chart_type, expected):
    assert ids(search(client, type=chart_type)) == expected


def test_specific_charts_follow_the_gender_sent(client):
    women = [{"id": "GENDER", "values": [{"id": WOMEN}]}, {"id": "BRAND", "values": [{"name": "adidas"}]}]
    assert ids(search(client, type="SPECIFIC", attributes=women)) == ["302"]
    assert ids(search(client, attributes=women)) == ["102", "202", "302"]


def test_specific_charts_are_only_the_callers(client):
    other = bearer(TOKENS[OTHER_SELLER])
    assert ids(search(client, headers=other, seller_id=OTHER_SELLER, type="SPECIFIC")) == ["301"]


def test_brand_filter_matches_case_insensitively_and_keeps_charts_without_brand(client):
    nike = [{"id": "GENDER", "values": [{"id": MEN}]}, {"id": "BRAND", "values": [{"name": "NIKE"}]}]
    assert ids(search(client, attributes=nike)) == ["101", "200", "201", "300"]
    own_brand = [{"id": "GENDER", "values": [{"id": MEN}]}, {"id": "BRAND", "values": [{"name": "zapas sur"}]}]
    assert ids(search(client, attributes=own_brand, type="SPECIFIC")) == ["300", "303"]


def test_main_attribute_filter(client):
    assert ids(search(client, main_attribute_id="AR_SIZE")) == ["201"]
    assert ids(search(client, main_attribute_id="EU_SIZE", type="STANDARD")) == ["200"]


def test_search_without_matches_answers_empty_charts(client):
    response = search(client, main_attribute_id="US_SIZE")
    assert response.status_code == 200 and response.get_json()["charts"] == []
    kids = [{"id": "GENDER", "values": [{"name": "Niños"}]}, {"id": "BRAND", "values": [{"name": "adidas"}]}]
    assert search(client, attributes=kids).get_json()["charts"] == []


def test_search_is_paginated(client):
    first = search(client, query={"limit": 2}).get_json()
    second = search(client, query={"limit": 2, "offset": 2}).get_json()
    assert [c["id"] for c in first["charts"]] == ["100", "200"]
    assert [c["id"] for c in second["charts"]] == ["201", "300"]
    assert first["paging"] == {"total": 4, "offset": 0, "limit": 2}
    assert search(client).get_json()["paging"] == {"total": 4, "offset": 0, "limit": 50}


def test_search_rejects_a_page_size_out_of_range(client):
    body = assert_error(search(client, query={"limit": 500}), 400, "validation_error")
    assert body["cause"][0]["field"] == "limit"


@pytest.mark.parametrize("missing", ["domain_id", "site_id", "seller_id"])
def test_domain_site_and_seller_are_mandatory(client, missing):
    body = {"domain_id": "SNEAKERS", "site_id": "MLA", "seller_id": SELLER, "attributes": MEN_ADIDAS}
    del body[missing]
    response = client.post("/catalog/charts/search", json=body, headers=AUTH)
    error = assert_error(response, 400, "validation_error")
    assert [c["field"] for c in error["cause"]] == [missing]


def test_grid_template_required_attributes_are_mandatory(client):
    error = assert_error(search(client, attributes=[{"id": "GENDER", "values": [{"name": "Hombre"}]}]),
                         400, "missing_required_attributes")
    assert "BRAND" in error["message"]


def test_search_in_a_domain_not_active_is_domain_not_active(client):
    error = assert_error(search(client, domain_id="BOOTS"), 400, "domain_not_active")
    assert error["message"] == "Domain MLA-BOOTS is not active to be used in charts"
    assert_error(search(client, domain_id="UNKNOWN"), 400, "domain_not_active")


def test_search_in_an_unknown_site_is_404(client):
    assert_error(search(client, site_id="XXX"), 404, "site_not_found")


def test_seller_id_must_be_the_caller(client):
    assert_error(search(client, seller_id=OTHER_SELLER), 403, "forbidden")


def test_x_caller_id_must_be_the_caller(client):
    assert ids(search(client, headers={**AUTH, "x-caller-id": str(SELLER)})) == ["100", "200", "201", "300"]
    assert_error(search(client, headers={**AUTH, "x-caller-id": str(OTHER_SELLER)}), 403, "forbidden")


def test_non_numeric_x_caller_id_is_a_400(client):
    error = assert_error(search(client, headers={**AUTH, "X-Caller-Id": "abc"}), 400, "validation_error")
    assert error["cause"][0]["field"] == "x-caller-id"


def test_specific_only_site_answers_only_specific_charts(client):
    mlu = bearer(MLU_TOKEN)
    assert ids(search(client, headers=mlu, site_id="MLU", seller_id=MLU_SELLER)) == ["400"]
    assert ids(search(client, headers=mlu, site_id="MLU", seller_id=MLU_SELLER, type="BRAND")) == []
    assert ids(search(client, headers=mlu, site_id="MLU", seller_id=MLU_SELLER, type="SPECIFIC")) == ["400"]


def test_search_rejects_an_unknown_type_and_unknown_fields(client):
    assert_error(search(client, type="CUSTOM"), 400, "validation_error")
    error = assert_error(search(client, gender="Hombre"), 400, "validation_error")
    assert error["cause"][0]["field"] == "gender"


def test_seller_id_must_be_a_number(client):
    error = assert_error(search(client, seller_id="1001"), 400, "validation_error")
    assert error["cause"][0]["field"] == "seller_id"
