"""CORS: a page on another origin may call the public endpoints; the endpoints that take a token
only from the origins in CORS_ORIGINS (none by default). A preflight is told apart from the spec's
OPTIONS self-description by its Access-Control-Request-Method header."""
import pytest

from tests.bundles import SELLER, TOKENS
from tests.helpers import bearer

SHOP = "https://shop.example"
CHECK = "/items/MLA100/check_compatibility"  # B3: a public POST, which JSONP cannot reach
ITEM_COMPATS = "/items/MLA100/compatibilities"


def preflight(client, path, method, origin=SHOP, headers="content-type"):
    return client.options(path, headers={"Origin": origin, "Access-Control-Request-Method": method,
                                         "Access-Control-Request-Headers": headers})


def allowed(response, name):
    return {v.strip().lower() for v in response.headers.get(name, "").split(",") if v.strip()}


def test_preflight_of_a_public_post_answers_any_origin(app_with):
    response = preflight(app_with().test_client(), CHECK, "POST")
    assert response.status_code == 204 and response.data == b""
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "post" in allowed(response, "Access-Control-Allow-Methods")
    assert "content-type" in allowed(response, "Access-Control-Allow-Headers")
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_a_public_call_from_another_origin_is_readable_and_exposes_etag(app_with):
    response = app_with().test_client().post(CHECK, json={"product_id": "MLA90001"}, headers={"Origin": SHOP})
    assert response.status_code == 200, response.get_json()
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert {"etag", "x-request-id", "retry-after"} <= allowed(response, "Access-Control-Expose-Headers")


def test_endpoints_with_a_token_answer_no_origin_by_default(app_with):
    client = app_with().test_client()
    response = preflight(client, ITEM_COMPATS, "GET", headers="authorization")
    assert response.status_code == 204 and "Access-Control-Allow-Origin" not in response.headers
    read = client.get(ITEM_COMPATS, headers={"Origin": SHOP, **bearer(TOKENS[SELLER])})
    assert read.status_code == 200 and "Access-Control-Allow-Origin" not in read.headers


@pytest.mark.parametrize("method, headers", [("GET", "authorization"), ("PUT", "authorization,content-type,if-match"),
                                             ("POST", "authorization,content-type,if-match,idempotency-key")])
def test_endpoints_with_a_token_answer_the_configured_origins(app_with, method, headers):
    client = app_with(CORS_ORIGINS=f"{SHOP}, https://admin.example").test_client()
    response = preflight(client, ITEM_COMPATS, method, headers=headers)
    assert response.headers["Access-Control-Allow-Origin"] == SHOP
    assert "Origin" in response.headers["Vary"]
    assert method.lower() in allowed(response, "Access-Control-Allow-Methods")
    assert set(headers.split(",")) <= allowed(response, "Access-Control-Allow-Headers")
    assert "Access-Control-Allow-Origin" not in preflight(client, ITEM_COMPATS, method, origin="https://evil.example",
                                                           headers=headers).headers


def test_answers_with_a_token_expose_the_etag_and_errors_are_readable_too(app_with):
    client = app_with(CORS_ORIGINS=SHOP).test_client()
    read = client.get(ITEM_COMPATS, headers={"Origin": SHOP, **bearer(TOKENS[SELLER])})
    assert read.status_code == 200 and read.headers["Access-Control-Allow-Origin"] == SHOP
    assert "etag" in allowed(read, "Access-Control-Expose-Headers") and read.headers["ETag"]
    refused = client.get(ITEM_COMPATS, headers={"Origin": SHOP})
    assert refused.status_code == 401 and refused.headers["Access-Control-Allow-Origin"] == SHOP
    assert "www-authenticate" in allowed(refused, "Access-Control-Expose-Headers")


def test_one_path_public_for_one_method_and_token_for_another(app_with):
    """GET /items/{id} takes a token; POST …/check_compatibility is public: decided per view and method."""
    client = app_with().test_client()
    assert "Access-Control-Allow-Origin" not in preflight(client, "/items/MLA100", "GET").headers
    assert client.get("/currencies", headers={"Origin": SHOP}).headers["Access-Control-Allow-Origin"] == "*"


def test_options_without_a_preflight_header_is_still_the_self_description(app_with):
    response = app_with().test_client().options(CHECK, headers={"Origin": SHOP})
    assert response.status_code == 200
    assert {"name", "description", "attributes", "methods", "related_resources", "connections"} <= set(
        response.get_json())
