"""The OpenAPI document: every operation shows an example of its answer and of its request body,
documents its errors with the error object, and its examples are true.

"True" twice over: each example validates against the schema it illustrates, and for the key
operations the documented request, sent to an app loaded with the demo bundle (the examples are
the demo's answers), answers the documented status with the documented example's top-level keys.
"""
import copy

import jsonschema_rs
import pytest

from app.data.demo import DEMO_TOKENS, build_demo_bundle
from schemas.examples import items as examples
from tests.documented import json_schema, resolve
from tests.helpers import bearer

METHODS = ("get", "post", "put", "delete", "patch")
ERROR_REF = "#/components/schemas/Error"
SELLER_PARTS = bearer(DEMO_TOKENS[1001])  # TALLER_SUR, vehicle parts
SELLER_FASHION = bearer(DEMO_TOKENS[1003])  # MODA_PALERMO, size charts

# (method, templated path, concrete URL, headers, exact): sent in this order (writes build on the earlier
# ones). `exact` when the demo answer is deterministic, so the documented example must be the answer itself.
REPLAYS = [
    ("get", "/health", "/health", {}, True),
    ("post", "/oauth/token", "/oauth/token", {}, False),
    # Relevance ranks ties differently on SQLite (FTS5) and PostgreSQL: same keys, not the same page.
    ("get", "/sites/{site_id}/search", "/sites/MLA/search?q=pastillas%20freno&limit=2", {}, False),
    ("post", "/items/{item_id}/check_compatibility", "/items/MLA1500000158/check_compatibility", {}, True),
    ("get", "/items/{item_id}", "/items/MLA1500000016", SELLER_PARTS, True),
    ("get", "/users/{seller_id}/items/search", "/users/1001/items/search?tags=incomplete_compatibilities",
     SELLER_PARTS, True),
    ("post", "/items/compatibilities_summary", "/items/compatibilities_summary", SELLER_PARTS, True),
    ("post", "/catalog_compatibilities/products_search/count_family_products",
     "/catalog_compatibilities/products_search/count_family_products", SELLER_PARTS, True),
    ("get", "/items/{item_id}/compatibilities/extended/check",
     "/items/MLA1500000016/compatibilities/extended/check", SELLER_PARTS, True),
    ("post", "/items/{item_id}/compatibilities", "/items/MLA1500000016/compatibilities", SELLER_PARTS, True),
    ("get", "/items/{item_id}/compatibilities", "/items/MLA1500000016/compatibilities?extended=true&limit=2",
     SELLER_PARTS, False),
    ("put", "/items/{item_id}/compatibilities", "/items/MLA1500000016/compatibilities", SELLER_PARTS, True),
    ("get", "/compats-snapshots/orders/{order_id}", "/compats-snapshots/orders/2000004512", SELLER_PARTS, True),
    ("post", "/items/{item_id}/compatibilities/exception", "/items/MLA1500000014/compatibilities/exception",
     SELLER_PARTS, True),
    ("post", "/domains/{domain_id}/technical_specs", "/domains/MLA-T_SHIRTS/technical_specs?section=grids",
     SELLER_FASHION, False),
    ("post", "/catalog/charts/search", "/catalog/charts/search?limit=2",
     {**SELLER_FASHION, "x-caller-id": "1003"}, True),
    ("post", "/catalog/charts", "/catalog/charts", SELLER_FASHION, False),
    ("get", "/catalog_domains/{domain_id}", "/catalog_domains/MLA-CARS_AND_VANS", SELLER_PARTS, True),
    ("post", "/catalog_domains/{domain_id}/attributes/{attribute_id}/top_values",
     "/catalog_domains/MLA-CARS_AND_VANS/attributes/MODEL/top_values", SELLER_PARTS, True),
    ("post", "/catalog_compatibilities/products_search/chunks", "/catalog_compatibilities/products_search/chunks",
     SELLER_PARTS, True),
    ("get", "/products/{product_id}", "/products/MLA15903638", SELLER_PARTS, True),
]


@pytest.fixture
def spec(client):
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def media_examples(media):
    if "example" in media:
        yield "example", media["example"]
    for name, example in (media.get("examples") or {}).items():
        yield name, example["value"]


def success_media(spec, operation):
    """(status, media) of each 2xx answer documented as JSON (JSONP-only 200s of 201 views are left out)."""
    for status, response in operation["responses"].items():
        response = resolve(spec, response)
        if str(status).startswith("2") and "application/json" in response.get("content", {}):
            yield str(status), response["content"]["application/json"]


def test_an_app_built_again_serves_the_document_it_would_have_built_itself(app, spec, monkeypatch, database_url):
    """Apps built in one process share the document of the first (app/http/shared_document.py): the
    shared one is what an app that resolves every schema anew serves, and a blueprint one app adds
    afterwards is in that app's document only."""
    from app.http.smorest import Api
    from tests.helpers import make_app
    from tests.http import probe_api

    def document_of(built):
        return built.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec

    assert document_of(make_app(database_url)) is document_of(app)
    monkeypatch.setattr(Api, "_documents", {})
    anew = make_app(database_url)
    assert document_of(anew) is not document_of(app)
    assert anew.test_client().get("/openapi.json").get_json() == spec
    probed = make_app(database_url)
    assert document_of(probed) is document_of(anew)
    probe_api.install(probed)
    own = probed.test_client().get("/openapi.json").get_json()
    assert any(path.startswith("/probe") for path in own["paths"])
    assert own["paths"].items() >= spec["paths"].items()
    assert anew.test_client().get("/openapi.json").get_json() == spec
    assert make_app(database_url).test_client().get("/openapi.json").get_json() == spec


def test_every_success_response_has_an_operation_level_example(spec):
    missing = []
    for name, operation in operations(spec):
        answers = list(success_media(spec, operation))
        if not answers:
            missing.append(f"{name}: no JSON success response")
        missing += [f"{name} {status}" for status, media in answers if not list(media_examples(media))]
    assert not missing, "success responses without an example:\n" + "\n".join(missing)


def test_every_request_body_has_an_example(spec):
    missing = [f"{name} {content_type}"
               for name, operation in operations(spec)
               for content_type, media in operation.get("requestBody", {}).get("content", {}).items()
               if not list(media_examples(media))]
    assert not missing, "request bodies without an example:\n" + "\n".join(missing)


def test_every_error_response_is_the_error_object(spec):
    wrong = []
    for name, operation in operations(spec):
        for status, response in operation["responses"].items():
            if str(status) != "default" and int(status) < 400:
                continue
            content = resolve(spec, response).get("content", {})
            schema_ref = content.get("application/json", {}).get("schema", {}).get("$ref")
            if schema_ref != ERROR_REF:
                wrong.append(f"{name} {status}: {schema_ref}")
    assert not wrong, "error responses not documented with the error object:\n" + "\n".join(wrong)


def test_every_error_response_has_an_error_object_example(spec):
    error_schema = jsonschema_rs.validator_for(json_schema(spec, {"$ref": ERROR_REF}))
    missing = []
    for name, operation in operations(spec):
        for status, response in operation["responses"].items():
            if str(status) != "default" and int(status) < 400:
                continue
            media = resolve(spec, response).get("content", {}).get("application/json", {})
            examples = [example for _, example in media_examples(media)]
            if not examples or not all(error_schema.is_valid(e) for e in examples):
                missing.append(f"{name} {status}")
            elif str(status) != "default" and any(e["status"] != int(status) for e in examples):
                missing.append(f"{name} {status}: example of another status")
    assert not missing, "error responses without a valid example:\n" + "\n".join(missing)


def test_every_example_validates_against_its_schema(spec):
    invalid = []
    for name, operation in operations(spec):
        media_list = [(status, media) for status, media in success_media(spec, operation)]
        media_list += [(f"request {content_type}", media)
                       for content_type, media in operation.get("requestBody", {}).get("content", {}).items()]
        for where, media in media_list:
            validator = jsonschema_rs.validator_for(json_schema(spec, media["schema"]))
            for example_name, example in media_examples(media):
                errors = [f"{e.instance_path}: {e.message}" for e in validator.iter_errors(example)]
                if errors:
                    invalid.append(f"{name} {where} {example_name}: {errors[:3]}")
    assert not invalid, "examples that do not match their schema:\n" + "\n".join(invalid)


def test_validator_rejects_an_example_of_the_wrong_shape(spec):
    """Guards the check above: the resolver must not turn schemas into accept-anything."""
    schema = json_schema(spec, {"$ref": "#/components/schemas/Token"})
    assert not jsonschema_rs.validator_for(schema).is_valid({"expires_in": "soon"})
    item = jsonschema_rs.validator_for(json_schema(spec, {"$ref": "#/components/schemas/Item"}))
    assert item.is_valid({**examples.ITEM, "official_store_id": None})
    assert not item.is_valid({key: value for key, value in examples.ITEM.items() if key != "official_store_id"})


def first_example(media):
    return copy.deepcopy(next(media_examples(media), (None, None))[1])


def top_level_keys(body):
    if isinstance(body, list):
        return set(body[0]) if body and isinstance(body[0], dict) else set()
    return set(body) if isinstance(body, dict) else set()


def test_documented_examples_are_real_answers_of_the_demo(client, spec, load_bundle):
    load_bundle(build_demo_bundle())
    mismatches = []
    for method, path, url, headers, exact in REPLAYS:
        operation = spec["paths"][path][method]
        status, media = next(success_media(spec, operation))
        kwargs = {}
        for content_type, body_media in operation.get("requestBody", {}).get("content", {}).items():
            body = first_example(body_media)
            kwargs = {"json": body} if content_type == "application/json" else {"data": body}
        response = client.open(url, method=method.upper(), headers=headers, **kwargs)
        documented = first_example(media)
        answer = response.get_json()
        label = f"{method.upper()} {url}"
        if str(response.status_code) != status:
            mismatches.append(f"{label}: answered {response.status_code} {answer}, documented {status}")
        elif top_level_keys(answer) != top_level_keys(documented):
            mismatches.append(f"{label}: keys {sorted(top_level_keys(answer))}, "
                              f"documented {sorted(top_level_keys(documented))}")
        elif exact and answer != documented:
            mismatches.append(f"{label}: answered {answer}, documented {documented}")
    assert not mismatches, "documented examples the demo does not answer:\n" + "\n".join(mismatches)
