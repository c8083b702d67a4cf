"""F1 and F4: a catalog domain with its attributes in refinement order, one product; the token
every finder endpoint needs."""
import pytest

from tests.finder.data import ATTRIBUTES, AUTH, DOMAIN

DEFAULTS = {"value_type": "list", "hierarchy": "CHILD_PK", "relevance": 3}


@pytest.fixture
def loaded(bundle):
    return bundle


def test_domain_lists_its_attributes_in_refinement_order(client, loaded):
    response = client.get(f"/catalog_domains/{DOMAIN}", headers=AUTH)
    assert response.status_code == 200
    assert response.get_json() == {"id": DOMAIN, "name": "Autos y camionetas", "site_id": "MLA",
                                   "attributes": [{**DEFAULTS, **a} for a in ATTRIBUTES]}


def test_attribute_fields_the_bundle_omits_get_the_defaults(client, loaded):
    attributes = client.get(f"/catalog_domains/{DOMAIN}", headers=AUTH).get_json()["attributes"]
    assert attributes[-1] == {"id": "DOORS", "name": "Puertas", **DEFAULTS}
    assert attributes[4] == {"id": "FUEL_TYPE", "name": "Tipo de combustible", "value_type": "list",
                             "hierarchy": "CHILD_PK", "relevance": 2}


def test_unknown_domain_is_404_not_found(client, loaded):
    response = client.get("/catalog_domains/MLA-SPACESHIPS", headers=AUTH)
    assert response.status_code == 404
    assert response.get_json()["error"] == "not_found" and "MLA-SPACESHIPS" in response.get_json()["message"]


def test_product_answers_its_attributes_with_their_names(client, loaded):
    body = client.get("/products/MLA900001", headers=AUTH).get_json()
    assert body == {
        "id": "MLA900001", "name": "Volkswagen Gol 1.6 Trendline 2010", "domain_id": DOMAIN, "site_id": "MLA",
        "parent_id": "MLA700000", "attributes": [
            {"id": "BRAND", "name": "Marca", "values": [{"id": "60249", "name": "Volkswagen"}]},
            {"id": "MODEL", "name": "Modelo", "values": [{"id": "62109", "name": "Gol"}]},
            {"id": "VEHICLE_YEAR", "name": "Año", "values": [{"id": "2010", "name": "2010"}]},
            {"id": "SHORT_VERSION", "name": "Versión", "values": [{"id": "70001", "name": "1.6 Trendline"}]},
            {"id": "FUEL_TYPE", "name": "Tipo de combustible", "values": [{"id": "91292", "name": "Diésel"}]}]}


def test_parent_product_has_no_parent(client, loaded):
    body = client.get("/products/MLA700000", headers=AUTH).get_json()
    assert body["parent_id"] is None and [a["id"] for a in body["attributes"]] == ["BRAND", "MODEL", "VEHICLE_YEAR"]


def test_unknown_product_is_404_not_found(client, loaded):
    response = client.get("/products/MLA123", headers=AUTH)
    assert response.status_code == 404 and response.get_json()["error"] == "not_found"


@pytest.mark.parametrize("method, path", [
    ("GET", f"/catalog_domains/{DOMAIN}"),
    ("POST", f"/catalog_domains/{DOMAIN}/attributes/BRAND/top_values"),
    ("POST", "/catalog_compatibilities/products_search/chunks"),
    ("GET", "/products/MLA900001"),
])
def test_every_finder_endpoint_needs_a_token(client, loaded, method, path):
    kwargs = {"json": {"domain_id": DOMAIN, "site_id": "MLA"}} if method == "POST" else {}
    response = client.open(path, method=method, **kwargs)
    assert response.status_code == 401
    assert response.get_json()["error"] == "invalid_token" and response.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = client.open(path, method=method, headers={"Authorization": "Bearer nope-nope-nope"}, **kwargs)
    assert wrong.status_code == 401


def test_conventions_apply_jsonp_reduction_and_options(client, loaded):
    jsonp = client.get(f"/catalog_domains/{DOMAIN}?callback=cb", headers=AUTH)
    assert jsonp.status_code == 200 and jsonp.get_data(as_text=True).startswith("/**/cb([200,")
    missing = client.get("/products/MLA123?callback=cb", headers=AUTH)
    assert missing.status_code == 200 and missing.get_data(as_text=True).startswith("/**/cb([404,")
    reduced = client.post(f"/catalog_domains/{DOMAIN}/attributes/BRAND/top_values?attributes=id", headers=AUTH,
                          json={"limit": 2})
    assert reduced.get_json() == [{"id": "60249"}, {"id": "61828"}]
    options = client.options(f"/catalog_domains/{DOMAIN}/attributes/BRAND/top_values")
    assert options.status_code == 200
    assert [m["method"] for m in options.get_json()["methods"]] == ["POST"]
