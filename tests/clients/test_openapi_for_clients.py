"""The OpenAPI document as client generators read it: one stable, readable operationId per operation,
and no enum listing a value twice (openapi-python-client crashed on section ["grids", "GRIDS"])."""
import re

import pytest

from tests.http.test_document_strict import walk


@pytest.fixture
def document(client):
    return client.get("/openapi.json").get_json()


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                yield method, path, operation


def enums(document):
    """(path, values) of every enum in the document."""
    return ((where, node["enum"]) for where, node in walk(document) if isinstance(node.get("enum"), list))


def test_every_operation_has_a_unique_snake_case_operation_id(document):
    ids = [operation.get("operationId") for _, _, operation in operations(document)]
    assert all(i and re.fullmatch(r"(get|post|put|delete)_[a-z0-9_]+", i) for i in ids), ids
    assert len(ids) == len(set(ids)) > 30


def test_operation_ids_are_the_documented_stable_names(document):
    ids = {(method, path): operation["operationId"] for method, path, operation in operations(document)}
    assert ids[("post", "/oauth/token")] == "post_token"
    assert ids[("post", "/items/{item_id}/compatibilities")] == "post_item_compatibilities"
    assert ids[("get", "/items/{item_id}/compatibilities")] == "get_item_compatibilities"
    assert ids[("delete", "/items/{item_id}/compatibilities/{compatibility_id}")] == "delete_item_compatibility_by_id"
    assert ids[("get", "/users/me")] == "get_me"


def test_no_enum_lists_a_value_twice_in_any_letter_case(document):
    repeated = [(where, values) for where, values in enums(document)
                if len({str(v).lower() for v in values}) != len(values)]
    assert repeated == []


def test_section_grids_is_accepted_in_any_case_but_documented_once(document):
    from schemas.chart_sheets import ChartSheetQuerySchema

    parameters = document["paths"]["/domains/{domain_id}/technical_specs"]["post"]["parameters"]
    section = next(p for p in parameters if p.get("name") == "section")
    assert section["schema"]["enum"] == ["grids"]
    assert [ChartSheetQuerySchema().load({"section": v}) for v in ("grids", "GRIDS")] == [{"section": "grids"}] * 2
