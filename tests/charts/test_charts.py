"""Chart domains per site (22), chart domains by type (26) and reading a chart."""
import pytest

from tests.bundles import OTHER_SELLER, SELLER, TOKENS
from tests.charts_data import MLU_TOKEN, charts_bundle
from tests.helpers import assert_error, bearer

AUTH = bearer(TOKENS[SELLER])


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(charts_bundle())


def test_active_domains_lists_the_sites_chart_domains_with_prefix(client):
    response = client.get("/catalog/charts/MLA/configurations/active_domains", headers=AUTH)
    assert response.status_code == 200
    assert response.get_json() == {"domains": [{"domain_id": "MLA-PANTS"}, {"domain_id": "MLA-SNEAKERS"},
                                               {"domain_id": "MLA-T_SHIRTS"}]}


def test_active_domains_of_a_site_without_chart_domains_is_config_not_found(client):
    body = assert_error(client.get("/catalog/charts/MLB/configurations/active_domains", headers=AUTH),
                        404, "config_not_found")
    assert body["message"].startswith("Config not found")


def test_active_domains_of_an_unknown_site_is_config_not_found(client):
    assert_error(client.get("/catalog/charts/XXX/configurations/active_domains", headers=AUTH),
                 404, "config_not_found")


@pytest.mark.parametrize("method, path, body", [
    ("get", "/catalog/charts/MLA/configurations/active_domains", None),
    ("get", "/domains/MLA-SNEAKERS/technical_specs", None),
    ("post", "/domains/MLA-SNEAKERS/technical_specs?section=grids", {"attributes": []}),
    ("post", "/catalog/charts/search", {"domain_id": "SNEAKERS", "site_id": "MLA", "seller_id": SELLER}),
    ("post", "/catalog/charts/domains/search", {"site_id": "MLA", "type": "BRAND"}),
    ("post", "/catalog/charts", {}),
    ("get", "/catalog/charts/100", None),
    ("put", "/catalog/charts/300", {"names": {"MLA": "x"}}),
    ("delete", "/catalog/charts/300", None),
    ("post", "/catalog/charts/300/rows", {"attributes": []}),
    ("put", "/catalog/charts/300/rows/300:1", {"attributes": []}),
])
def test_chart_endpoints_need_a_token(client, method, path, body):
    response = getattr(client, method)(path, json=body)
    assert_error(response, 401, "invalid_token")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_chart_domains_by_type_lists_active_domains_with_charts_of_that_type(client):
    brand = client.post("/catalog/charts/domains/search", json={"site_id": "MLA", "type": "BRAND"}, headers=AUTH)
    standard = client.post("/catalog/charts/domains/search", json={"site_id": "MLA", "type": "STANDARD"},
                           headers=AUTH)
    assert brand.status_code == 200 and standard.status_code == 200
    # BOOTS has a BRAND chart but is not active for charts.
    assert brand.get_json() == {"domains": [{"domain_id": "SNEAKERS"}]}
    assert standard.get_json() == {"domains": [{"domain_id": "SNEAKERS"}, {"domain_id": "T_SHIRTS"}]}


def test_chart_domains_by_type_is_empty_in_a_specific_only_site(client):
    response = client.post("/catalog/charts/domains/search", json={"site_id": "MLU", "type": "BRAND"},
                           headers=bearer(MLU_TOKEN))
    assert response.status_code == 200 and response.get_json() == {"domains": []}


def test_chart_domains_by_type_rejects_specific_and_unknown_types(client):
    for chart_type in ("SPECIFIC", "OTHER"):
        body = assert_error(client.post("/catalog/charts/domains/search",
                                        json={"site_id": "MLA", "type": chart_type}, headers=AUTH),
                            400, "validation_error")
        assert body["cause"][0]["field"] == "type"


def test_chart_domains_by_type_requires_site_and_type(client):
    body = assert_error(client.post("/catalog/charts/domains/search", json={}, headers=AUTH), 400,
                        "validation_error")
    assert {c["field"] for c in body["cause"]} == {"site_id", "type"}


def test_chart_domains_by_type_of_an_unknown_site_is_404(client):
    assert_error(client.post("/catalog/charts/domains/search", json={"site_id": "XXX", "type": "BRAND"},
                             headers=AUTH), 404, "site_not_found")


def test_read_chart_answers_rows_with_ids_and_size_from_the_main_attribute(client):
    response = client.get("/catalog/charts/201", headers=AUTH)
    assert response.status_code == 200
    chart = response.get_json()
    assert chart["type"] == "STANDARD" and chart["main_attribute_id"] == "AR_SIZE"
    assert [row["id"] for row in chart["rows"]] == ["201:1", "201:2", "201:3"]
    first = {a["id"]: a["values"][0]["name"] for a in chart["rows"][0]["attributes"]}
    assert first == {"AR_SIZE": "40", "FOOT_LENGTH": "22.5 cm", "SIZE": "40"}


def test_read_another_sellers_specific_chart_is_forbidden(client):
    assert_error(client.get("/catalog/charts/301", headers=AUTH), 403, "forbidden")
    assert client.get("/catalog/charts/301", headers=bearer(TOKENS[OTHER_SELLER])).status_code == 200


def test_read_unknown_chart_is_404(client):
    assert_error(client.get("/catalog/charts/999999", headers=AUTH), 404, "chart_not_found")
