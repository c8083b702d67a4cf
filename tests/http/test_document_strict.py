"""The OpenAPI document is as strict as the server (issue 29): what it requires, refuses and shows is
what the server does, so that typed clients accept only what the server accepts.

Each rule is asserted on the served document, and where the document narrows the input, the server is
asked too: what the document refuses, the server refuses with its own 400 (messages unchanged); what it
accepts passes validation. Every example in the document validates against its schema, and the path
parameters' examples are the demo's, so that the docs page's "Try it out" answers.
"""
import re

import jsonschema_rs
import pytest

from app.data.demo import DEMO_TOKENS, build_demo_bundle
from schemas.vocabulary import ATTRIBUTE_HIERARCHIES, COMPATIBILITY_SOURCES, GRANT_TYPES, ITEM_ID_PATTERN
from tests.helpers import bearer
from tests.http.test_openapi import json_schema, operations, resolve

SELLER_PARTS = bearer(DEMO_TOKENS[1001])
COMPONENT = "#/components/schemas/"


@pytest.fixture
def spec(client):
    return client.get("/openapi.json").get_json()


def component_validator(document, name):
    return jsonschema_rs.validator_for(json_schema(document, {"$ref": COMPONENT + name}))


def walk(node, path=""):
    """(path, dict) of every object in the document."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


def test_the_document_names_its_server(spec):
    assert spec["servers"][0]["url"] == "/"


def test_the_token_endpoint_requires_a_known_grant_type_and_declares_basic(spec):
    operation = spec["paths"]["/oauth/token"]["post"]
    content = operation["requestBody"]["content"]
    assert set(content) == {"application/x-www-form-urlencoded", "application/json"}
    for media in content.values():
        body = resolve(spec, media["schema"])
        assert "grant_type" in body["required"]
        assert sorted(body["properties"]["grant_type"]["enum"]) == sorted(GRANT_TYPES)
    query = {p["name"]: p for p in operation["parameters"] if "name" in p}
    assert sorted(query["grant_type"]["schema"]["enum"]) == sorted(GRANT_TYPES)
    assert operation["security"] == [{}, {"basicAuth": []}]
    assert spec["components"]["securitySchemes"]["basicAuth"] == {
        "type": "http", "scheme": "basic", "description": spec["components"]["securitySchemes"]["basicAuth"][
            "description"]}


@pytest.mark.parametrize("credentials", ["basic", "body"])
def test_the_token_endpoint_takes_what_the_document_says(client, load_bundle, credentials):
    load_bundle(build_demo_bundle())
    auth = {"Authorization": "Basic NTUwMTpkZW1vLXNlY3JldC01NTAx"} if credentials == "basic" else {}
    body = {"grant_type": "client_credentials"}
    if credentials == "body":
        body.update(client_id="5501", client_secret="demo-secret-5501")
    assert client.post("/oauth/token", data=body, headers=auth).status_code == 200
    assert client.post("/oauth/token", json=body, headers=auth).status_code == 200
    refused = client.post("/oauth/token", json={**body, "grant_type": "password"}, headers=auth)
    assert refused.status_code == 400 and refused.get_json()["error"] == "unsupported_grant_type"


# (component, path of a request that loads it, body refused by both, body accepted by the document)
EXCLUSIVE = [
    ("CheckCompatibility", "/items/MLA1500000031/check_compatibility",
     {"product_id": "MLA15900013", "attributes": [{"id": "BRAND", "value_id": "60249"}]},
     {"product_id": "MLA15900013"}, "give product_id or attributes, exactly one of them"),
    ("CheckCompatibility", "/items/MLA1500000031/check_compatibility", {}, {"attributes": [
        {"id": "BRAND", "value_id": "60249"}]}, "give product_id or attributes, exactly one of them"),
    ("TopValuesArgs", "/catalog_domains/MLA-CARS_AND_VANS/attributes/MODEL/top_values",
     {"known_attributes": [{"id": "BRAND", "value_id": "60249", "value_ids": ["60249"]}]},
     {"known_attributes": [{"id": "BRAND", "value_ids": ["60249"]}]}, "give exactly one of value_id or value_ids"),
    ("FamilyCount", "/catalog_compatibilities/products_search/count_family_products",
     {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_id": "60249", "value_ids": ["1"]}]},
     {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_id": "60249"}]},
     "give exactly one of value_id, value_name or value_ids"),
]


ONE_OF_AT = {"CheckCompatibility": "CheckCompatibility", "TopValuesArgs": "KnownAttribute",
             "FamilyCount": "FamilyAttribute"}


@pytest.mark.parametrize("component, url, refused, accepted, message", EXCLUSIVE)
def test_exclusive_inputs_are_one_of_their_variants(spec, client, load_bundle, component, url, refused, accepted,
                                                    message):
    load_bundle(build_demo_bundle())
    assert "oneOf" in spec["components"]["schemas"][ONE_OF_AT[component]]
    validator = component_validator(spec, component)
    assert not validator.is_valid(refused), refused
    assert validator.is_valid(accepted), list(validator.iter_errors(accepted))
    answer = client.post(url, json=refused, headers=SELLER_PARTS)
    assert answer.status_code == 400 and message in str(answer.get_json()), answer.get_json()


def test_the_site_search_says_its_exclusive_query_parameters(spec):
    parameters = {p["name"]: p for p in spec["paths"]["/sites/{site_id}/search"]["get"]["parameters"]}
    assert "compatible_with or compatibility_filter" in parameters["q"]["description"]
    assert parameters["compatibility_filter"]["schema"]["pattern"].startswith("^[A-Za-z0-9_]")


def test_item_ids_have_the_servers_pattern_and_closed_vocabularies_an_enum(spec, client, load_bundle):
    load_bundle(build_demo_bundle())
    for path, item in spec["paths"].items():
        for parameter in item.get("parameters", []):
            if parameter["name"] == "item_id":
                assert parameter["schema"]["pattern"] == ITEM_ID_PATTERN, path
    malformed = client.get("/items/mla-1/compatibilities", headers=SELLER_PARTS)
    assert not re.match(ITEM_ID_PATTERN, "mla-1") and malformed.get_json()["error"] == "invalid_item_id"
    schemas = spec["components"]["schemas"]
    assert schemas["CompatibilityEntry"]["properties"]["source"]["enum"] == list(COMPATIBILITY_SOURCES)
    assert schemas["DomainAttribute"]["properties"]["hierarchy"]["enum"] == list(ATTRIBUTE_HIERARCHIES)
    assert "active" in schemas["Item"]["properties"]["status"]["enum"]
    change_source = schemas["Change"]["properties"]["source"]
    assert change_source["enum"] == list(COMPATIBILITY_SOURCES) and change_source["nullable"] is True


def test_no_enum_lists_null_or_a_value_twice(spec):
    wrong = [path for path, node in walk(spec)
             if isinstance(node.get("enum"), list) and (None in node["enum"] or len(set(map(str, node["enum"])))
                                                        != len(node["enum"]))]
    assert not wrong, wrong


def test_schema_properties_leave_defaults_to_the_description_and_say_null_plainly(spec):
    """openapi-typescript types a property with a `default` as always present (a client had to send
    `offset: 0`), and apispec's `anyOf: [$ref, {type: object, nullable}]` became a union with an empty
    object (`change.changes?.note` did not compile)."""
    schemas = spec["components"]["schemas"]
    defaults = [f"{name}.{prop}" for name, schema in schemas.items()
                for prop, node in (schema.get("properties") or {}).items() if "default" in node]
    assert not defaults, defaults
    assert "(default: 0)" in schemas["ProductSearchArgs"]["properties"]["offset"]["description"]
    empty_objects = [path for path, node in walk(spec)
                     if {"type": "object", "nullable": True} in (node.get("anyOf") or [])]
    assert not empty_objects, empty_objects
    changes = schemas["Change"]["properties"]["changes"]
    assert changes["allOf"] == [{"$ref": "#/components/schemas/Changes"}] and changes["nullable"] is True


def test_retry_after_on_429_and_503_and_etag_on_304(spec):
    missing = []
    for name, operation in operations(spec):
        for status, response in operation["responses"].items():
            headers = resolve(spec, response).get("headers", {})
            wanted = {"429": "Retry-After", "503": "Retry-After", "304": "ETag"}.get(str(status))
            if wanted and not headers.get(wanted, {}).get("required"):
                missing.append(f"{name} {status}")
    assert not missing, missing
    assert any("304" in operation["responses"] for _, operation in operations(spec))


def test_a_304_carries_the_etag_and_a_429_its_retry_after(client, load_bundle, app_with):
    load_bundle(build_demo_bundle())
    url = "/items/MLA1500000031/compatibilities"
    etag = client.get(url, headers=SELLER_PARTS).headers["ETag"]
    again = client.get(url, headers={**SELLER_PARTS, "If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"]
    limited = app_with(AUTH_FAILURES_PER_CLIENT="1 per minute").test_client()
    answers = [limited.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": "5501",
                                                  "client_secret": "wrong"}) for _ in range(3)]
    assert answers[-1].status_code == 429 and int(answers[-1].headers["Retry-After"]) >= 0


def examples_with_schemas(spec):
    """(where, example, schema) of every example in the document: component schemas and their
    properties, parameters, request bodies and responses."""
    for name, schema in spec["components"]["schemas"].items():
        if "example" in schema:
            yield f"schema {name}", schema["example"], schema
        for prop, prop_schema in (schema.get("properties") or {}).items():
            if "example" in prop_schema:
                yield f"schema {name}.{prop}", prop_schema["example"], prop_schema
    for path, item in spec["paths"].items():
        for parameter in item.get("parameters", []):
            yield f"{path} {parameter['name']}", parameter.get("example"), parameter["schema"]
        for name, operation in operations({"paths": {path: item}}):
            for parameter in operation.get("parameters", []):
                parameter = resolve(spec, parameter)
                if "example" in parameter:
                    yield f"{name} {parameter['name']}", parameter["example"], parameter["schema"]
            media = [(f"request {t}", m) for t, m in operation.get("requestBody", {}).get("content", {}).items()]
            media += [(f"{status} {t}", m) for status, response in operation["responses"].items()
                      for t, m in resolve(spec, response).get("content", {}).items()]
            for where, body in media:
                if "example" in body:
                    yield f"{name} {where}", body["example"], body["schema"]
                for example_name, example in (body.get("examples") or {}).items():
                    yield f"{name} {where} {example_name}", example["value"], body["schema"]


def test_every_example_of_the_document_validates(spec):
    checked, invalid = 0, []
    for where, example, schema in examples_with_schemas(spec):
        if schema.get("type") == "string" and schema.get("format") == "binary":
            continue
        checked += 1
        errors = [f"{e.instance_path}: {e.message}"
                  for e in jsonschema_rs.validator_for(json_schema(spec, schema)).iter_errors(example)]
        if errors:
            invalid.append(f"{where}: {errors[:2]}")
    assert not invalid, "\n".join(invalid)
    assert checked > 150


def test_path_parameter_examples_are_the_demos(spec, client, load_bundle):
    """Every path parameter has an example, and GET on each path with them answers 200 from the demo
    (a bulk job's id answers its documented 404: the demo has no job)."""
    load_bundle(build_demo_bundle())
    wrong = []
    for path, item in spec["paths"].items():
        parameters = [p for p in item.get("parameters", []) if p["in"] == "path"]
        if not parameters:
            continue
        if any("example" not in p for p in parameters):
            wrong.append(f"{path}: a path parameter without example")
            continue
        url = path.format(**{p["name"]: p["example"] for p in parameters})
        if "get" not in item:
            continue
        # with the query's required parameters, and `q` (required but for a vehicle), as their examples show
        query = {p["name"]: p["schema"].get("example", p.get("example")) for p in item["get"].get("parameters", [])
                 if "name" in p and p["in"] == "query" and (p.get("required") or p["name"] == "q")}
        token = bearer(DEMO_TOKENS[1003]) if "/charts/" in path or "technical_specs" in path else SELLER_PARTS
        answer = client.get(url, query_string=query, headers=token)
        expected = 404 if "{job_id}" in path else 200
        if answer.status_code != expected or str(answer.status_code) not in item["get"]["responses"]:
            wrong.append(f"GET {url}: {answer.status_code} {answer.get_data(as_text=True)[:150]}")
    assert not wrong, "\n".join(wrong)
