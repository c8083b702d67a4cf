"""The conventions every endpoint shares: error object, JSONP, reduction, OPTIONS, request ids."""
import json
import logging
import re

import pytest

from app import API_DESCRIPTION
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import assert_error, bearer, make_app
from tests.http import probe_api


@pytest.fixture
def probe_client(app):
    probe_api.install(app)
    return app.test_client()


@pytest.fixture
def loaded(load_bundle):
    load_bundle(base_bundle())


def parse_jsonp(text, callback="cb"):
    match = re.fullmatch(rf"/\*\*/{re.escape(callback)}\((.*)\);", text, re.S)
    assert match, text
    return json.loads(match.group(1))


# --- the error object -------------------------------------------------------------------


def test_unknown_path_answers_404_error_object(client):
    assert_error(client.get("/no/such/path"), 404, "not_found")


def test_wrong_method_answers_405_and_keeps_allow(client):
    response = client.delete("/currencies")
    assert_error(response, 405, "method_not_allowed")
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "OPTIONS"}


def test_body_over_one_mebibyte_answers_413(client):
    response = client.post("/oauth/token", data="x" * (1024 * 1024 + 1), content_type="application/json")
    assert_error(response, 413, "request_entity_too_large")


def test_validation_errors_answer_400_with_one_cause_per_problem(probe_client, loaded):
    body = {"lines": [{"id": "bad id", "quantity": 0}, {}], "colour": "red"}
    response = probe_client.post("/probe/x", json=body, headers=bearer(TOKENS[SELLER]))
    error = assert_error(response, 400, "validation_error")
    causes = {(c["field"], c["code"]) for c in error["cause"]}
    assert ("name", "required") in causes
    assert ("colour", "unknown_field") in causes
    assert ("lines.1.id", "required") in causes
    assert {c["field"] for c in error["cause"]} >= {"lines.0.id", "lines.0.quantity"}
    assert "name" in error["message"]


def test_invalid_json_body_answers_400(probe_client, loaded):
    response = probe_client.post("/probe/x", data="{not json", content_type="application/json",
                                 headers=bearer(TOKENS[SELLER]))
    error = assert_error(response, 400, "invalid_json")
    assert error["cause"][0]["code"] == "invalid_json"


def test_unexpected_exception_answers_500_without_internals_and_logs_request_id(probe_client, caplog):
    with caplog.at_level(logging.ERROR, logger="app.errors"):
        response = probe_client.get("/probe-boom", headers={"X-Request-Id": "req-123"})
    body = assert_error(response, 500, "internal_error")
    assert "hunter2" not in response.get_data(as_text=True) and "secret" not in body["message"]
    assert "req-123" in body["message"]
    assert any("req-123" in r.getMessage() and r.exc_info for r in caplog.records)


def test_unreachable_database_answers_503(tmp_path):
    app = make_app("postgresql://postgres@127.0.0.1:1/nowhere")
    response = app.test_client().get("/currencies")
    assert_error(response, 503, "service_unavailable")
    assert response.headers["Retry-After"]


# --- request ids ----------------------------------------------------------------------------

def test_request_id_is_echoed_or_generated(client):
    assert client.get("/currencies", headers={"X-Request-Id": "abc-1"}).headers["X-Request-Id"] == "abc-1"
    generated = client.get("/currencies", headers={"X-Request-Id": "bad id <script>"}).headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)


# --- authentication -----------------------------------------------------------------------

def test_missing_token_answers_401_with_www_authenticate(probe_client, loaded):
    response = probe_client.get("/probe/x")
    assert_error(response, 401, "invalid_token")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_unknown_token_answers_401(probe_client, loaded):
    assert_error(probe_client.get("/probe/x", headers=bearer("nope")), 401, "invalid_token")


def test_token_in_query_string_is_not_accepted(probe_client, loaded):
    assert_error(probe_client.get(f"/probe/x?access_token={TOKENS[SELLER]}"), 401, "invalid_token")


def test_valid_token_identifies_the_caller(probe_client, loaded):
    response = probe_client.get("/probe/x", headers=bearer(TOKENS[SELLER]))
    assert response.status_code == 200
    assert response.get_json()["caller"] == SELLER


def test_endpoint_may_declare_403_for_bad_tokens(probe_client, loaded):
    assert_error(probe_client.post("/probe/x", json={}), 403, "invalid_token")


def test_owner_check_answers_403_for_another_user(probe_client, loaded):
    response = probe_client.post("/probe/x", json={"name": "n", "lines": []}, headers=bearer(TOKENS[1002]))
    assert_error(response, 403, "forbidden")


def test_auth_is_checked_before_the_body(probe_client, loaded):
    assert_error(probe_client.post("/probe/x", json={"bad": 1}, headers=bearer("nope")), 403, "invalid_token")


def test_read_documents_and_guards_as_the_decorators_it_stands_for(probe_client, loaded):
    paths = probe_client.get("/openapi.json").get_json()["paths"]
    read, stacked = paths["/probe-read"]["post"], paths["/probe-read-stacked"]["post"]
    assert {**read, "operationId": None} == {**stacked, "operationId": None}
    for url in ("/probe-read", "/probe-read-stacked"):
        assert_error(probe_client.post(url, json={"bad": 1}), 401, "invalid_token")
        assert_error(probe_client.post(url, json={"bad": 1}, headers=bearer(TOKENS[SELLER])), 400,
                     "validation_error")
        assert probe_client.post(url, json={"name": "n", "lines": []}, headers=bearer(TOKENS[SELLER])
                                 ).get_json() == {"name": "n", "lines": 0}
        assert probe_client.options(url).get_json()["methods"][0]["errors"] == [
            {"status": 400, "error": "validation_error"}, {"status": 400, "error": "invalid_json"},
            {"status": 401, "error": "invalid_token"}, {"status": 403, "error": "forbidden"}]

# --- rate limits ------------------------------------------------------------------------------

def test_rate_limit_answers_429_with_retry_after(database_url, load_bundle):
    from app.db import connection
    from app.services.bundle import import_bundle

    app = make_app(database_url, RATELIMIT_COMPAT_WRITES="2 per minute")
    probe_api.install(app)
    with app.app_context(), connection():
        import_bundle(base_bundle())
    client = app.test_client()
    ok = {"name": "n", "lines": []}
    statuses = [client.post("/probe/x", json=ok, headers=bearer(TOKENS[SELLER])).status_code for _ in range(3)]
    assert statuses[:2] == [200, 200]
    response = client.post("/probe/x", json=ok, headers=bearer(TOKENS[SELLER]))
    assert_error(response, 429, "local_rate_limited")
    assert int(response.headers["Retry-After"]) > 0
    # Another caller has a budget of its own.
    other = client.post("/probe/x", json=ok, headers=bearer(TOKENS[1002]))
    assert other.status_code == 403  # not rate limited: the owner check answers


# --- JSONP ----------------------------------------------------------------------------------

def test_jsonp_wraps_status_headers_and_body(client, loaded):
    response = client.get("/currencies?callback=cb")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    status, headers, body = parse_jsonp(response.get_data(as_text=True))
    assert status == 200
    assert headers["Content-Type"] == ["application/json"]
    assert all(isinstance(v, list) for v in headers.values())
    assert {c["id"] for c in body} == {"ARS", "BRL"}


def test_jsonp_answers_200_for_errors_with_the_real_status_inside(client):
    response = client.get("/currencies/XXX?callback=my.ns.cb_1")
    assert response.status_code == 200
    status, _, body = parse_jsonp(response.get_data(as_text=True), "my.ns.cb_1")
    assert status == 404 and body["error"] == "currency_not_found"


def test_jsonp_keeps_allow_of_405_inside(client):
    status, headers, _ = parse_jsonp(client.delete("/currencies?callback=cb").get_data(as_text=True))
    assert status == 405 and "GET" in headers["Allow"][0]


@pytest.mark.parametrize("callback", ["alert(1)", "a-b", "1abc", "x" * 65, "a..b", "</script>", ""])
def test_unsafe_callback_answers_plain_400(client, callback):
    response = client.get("/currencies", query_string={"callback": callback})
    assert response.headers["Content-Type"] == "application/json"
    assert_error(response, 400, "invalid_callback")


def test_unsafe_callback_rejects_the_request_before_it_runs(probe_client, loaded):
    response = probe_client.post("/probe/x?callback=bad(", json={"name": "n", "lines": []},
                                 headers=bearer(TOKENS[SELLER]))
    assert_error(response, 400, "invalid_callback")


# --- attributes reduction ----------------------------------------------------------------------

def test_attributes_keeps_only_named_fields_of_an_object(client, loaded):
    assert client.get("/currencies/ARS?attributes=id,symbol").get_json() == {"id": "ARS", "symbol": "$"}


def test_attributes_applies_to_each_element_of_an_array(client, loaded):
    assert client.get("/sites?attributes=id").get_json() == [{"id": "MLA"}, {"id": "MLB"}]


def test_attributes_never_reduces_error_bodies(client):
    body = client.get("/currencies/XXX?attributes=id").get_json()
    assert set(body) == {"message", "error", "status", "cause"}


def test_attributes_and_jsonp_combine(client, loaded):
    _, _, body = parse_jsonp(client.get("/currencies/ARS?attributes=id&callback=cb").get_data(as_text=True))
    assert body == {"id": "ARS"}


# --- OPTIONS ----------------------------------------------------------------------------------

def test_options_describes_a_resource_from_its_documentation(client):
    response = client.options("/currencies/ARS")
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"name", "description", "attributes", "methods", "related_resources", "connections"}
    assert body["attributes"]["decimal_places"] == "Decimal places of amounts"
    assert body["methods"] == [{"method": "GET", "example": "/currencies/{currency_id}",
                                "description": "Read one currency",
                                "errors": [{"status": 404, "error": "currency_not_found"}]}]
    assert "/currencies/{currency_id}" in client.options("/currencies").get_json()["related_resources"]


def test_options_answers_for_every_route(app, client):
    paths = {r.rule for r in app.url_map.iter_rules() if r.endpoint != "static"}
    for rule in paths:
        path = re.sub(r"<int:[^>]+>", "1", rule)
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", "MLA1", path)
        response = client.options(path)
        assert response.status_code == 200, rule
        assert response.get_json()["methods"] or rule.startswith("/docs") or rule.startswith("/openapi"), rule


def test_options_on_unknown_path_answers_404(client):
    assert_error(client.options("/no/such/thing"), 404, "not_found")


# --- the OpenAPI document ----------------------------------------------------------------------

def test_openapi_documents_the_error_object_and_bearer_auth(client):
    spec = client.get("/openapi.json").get_json()
    error = spec["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"message", "error", "status", "cause"}
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert "422" not in json.dumps(spec["paths"])


def test_openapi_documents_jsonp_and_attributes_once(client):
    """Declared on every operation, `callback` and a `text/javascript` 200 made generators type each body
    as `T | string`: the document states the conventions once, in its description and its components."""
    spec = client.get("/openapi.json").get_json()
    assert "text/javascript" not in json.dumps(spec["paths"])
    paths = json.dumps(spec["paths"])
    assert "parameters/callback" not in paths and "parameters/attributes" not in paths
    parameters = spec["components"]["parameters"]
    assert parameters["callback"]["in"] == "query" and parameters["attributes"]["in"] == "query"
    description = spec["info"]["description"]
    assert description.startswith(API_DESCRIPTION)
    assert "`callback`" in description and "text/javascript" in description and "`attributes`" in description


def test_docs_page_is_served(client):
    assert client.get("/docs").status_code == 200


# --- hostile characters -------------------------------------------------------------------------

@pytest.mark.parametrize("request_args", [
    {"path": "/currencies/A%00B"},
    {"path": "/sites/MLA/search", "query_string": {"q": "freno\x00"}},
    {"path": "/oauth/token", "method": "POST", "data": {"grant_type": "client_credentials\x00"}},
    {"path": "/oauth/token", "method": "POST", "json": {"client_id": "55\x0001"}},
])
def test_nul_characters_are_refused_with_400_on_every_database(client, request_args):
    response = client.open(**request_args)
    assert_error(response, 400, "invalid_characters")


def test_reduced_body_is_serialised_like_any_other(client, loaded):
    full = client.get("/currencies/ARS").get_data(as_text=True)
    reduced = client.get("/currencies/ARS?attributes=id,description,symbol,decimal_places").get_data(as_text=True)
    assert reduced == full


def test_argument_schemas_are_not_rebuilt_on_every_request(probe_client, loaded, monkeypatch):
    import marshmallow

    body = {"name": "n", "lines": [{"id": "MLA1", "quantity": 2}]}
    assert probe_client.post("/probe/x", json=body, headers=bearer(TOKENS[SELLER])).status_code == 200
    built = []
    original = marshmallow.Schema.__init__

    def counting_init(self, *args, **kwargs):
        built.append(type(self).__name__)
        original(self, *args, **kwargs)

    monkeypatch.setattr(marshmallow.Schema, "__init__", counting_init)
    assert probe_client.post("/probe/x", json=body, headers=bearer(TOKENS[SELLER])).status_code == 200
    assert built == []
