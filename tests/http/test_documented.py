"""The response side of the OpenAPI document is as strict as the server (issue 29, item 4).

Every response object schema with properties lists its `required` fields (schemas.common.Answer),
unless it is allowed below with the reason; and the check of every answer of the suite against the
document (tests/documented.py) sees what it must: a missing required field, a wrong type, an
unexpected null, another status than the documented ones answered with something else than the
error object; and it leaves JSONP, reduced bodies and routes outside the document alone.
"""
import pytest

from tests import documented

# Response schemas without `required`, and why each field of theirs may be absent.
WITHOUT_REQUIRED = {
    "Changes": "a history record's changes list only what changed: the note, its status, the restrictions",
    "CompatibilitiesPutEcho": "the PUT echo has the sections the request sent: create, update, delete",
    "CreateEcho": "the echo of a create section has the parts the request sent",
    "SectionEcho": "the echo of an update or delete section has the parts the request sent",
    "FamilyValue": "a family value is echoed as sent, by id, by name or both",
    # A sheet is answered as its bundle stored it (a free-form object); a chart value as it was sent.
    **dict.fromkeys(("SheetInput", "Group", "Component", "UiConfig", "SheetAttribute", "Unit"),
                    "a part of a technical sheet, stored as the catalog bundle gave it"),
    "Value": "a chart's or a sheet's value, stored as sent: an id, a name, a struct, each may be left out",
}


def referenced(node):
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from referenced(value)
    elif isinstance(node, list):
        for value in node:
            yield from referenced(value)


def response_schemas(spec):
    """Names of the component schemas a response uses, directly or through other schemas."""
    pending = [ref for item in spec["paths"].values() for operation in item.values() if isinstance(operation, dict)
               for ref in referenced(operation.get("responses", {}))]
    seen, names = set(), set()
    while pending:
        ref = pending.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, section, kind, name = ref.split("/")
        if kind == "schemas":
            names.add(name)
        pending.extend(referenced(spec[section][kind][name]))
    return names


@pytest.fixture
def spec(app):
    return documented.document_of(app)[0]


def test_every_response_object_schema_lists_its_required_fields(spec):
    schemas = spec["components"]["schemas"]
    names = response_schemas(spec)
    without = sorted(name for name in names if schemas[name].get("properties") and not schemas[name].get("required"))
    assert without == sorted(WITHOUT_REQUIRED), (
        "response schemas without `required` (mark the schema Answer, or allow it here with the reason):\n"
        + "\n".join(without))
    print(f"\nrequired: {len(names) - len(without)} of {len(names)} response schemas list required fields")


def test_a_response_schema_leaves_out_only_its_optional_fields(spec):
    """Item answers every field; a history record leaves out, among others, product_id (universal)."""
    item, change = spec["components"]["schemas"]["Item"], spec["components"]["schemas"]["Change"]
    assert set(item["required"]) == set(item["properties"])
    assert {"id", "date_created", "action", "compatibility_id", "source", "actor"} == set(change["required"])
    assert item["properties"]["official_store_id"]["nullable"] is True


def test_answers_that_break_the_document_are_reported(app):
    with app.test_request_context("/health"):
        assert documented.problems(app, app.json.response({"status": "ok", "database": "ok"})) == []
        assert documented.problems(app, app.json.response({"status": "ok"})) == [
            '(body): "database" is a required property']
        assert documented.problems(app, app.json.response({"status": None, "database": "ok"})) == [
            'status: null is not of type "string"']
        undocumented_status = app.json.response({"status": "ok", "database": "ok"})
        undocumented_status.status_code = 202  # only 200 is: any other status is the error object
        assert documented.problems(app, undocumented_status)[0] == '(body): "cause" is a required property'
    with app.test_request_context("/users/me"):
        assert documented.problems(app, app.json.response({"id": "1001"})) == [
            '(body): "nickname" is a required property', '(body): "site_id" is a required property',
            '(body): "user_type" is a required property', 'id: "1001" is not of type "integer"']


def test_jsonp_reduced_bodies_and_routes_outside_the_document_are_left_alone(app):
    broken = {"status": None}
    for url in ("/health?attributes=status", "/health?callback=cb", "/docs/nothing"):
        with app.test_request_context(url):
            assert documented.problems(app, app.json.response(broken)) == [], url
    with app.test_request_context("/health", method="OPTIONS"):
        assert documented.problems(app, app.json.response(broken)) == []
    with app.test_request_context("/health"):
        assert documented.problems(app, app.response_class("/**/cb([200,{},{}]);", mimetype="text/javascript")) == []


def test_a_broken_answer_fails_the_test_that_got_it(app, client):
    """Through the real hook: the receiver records the answer; the test's call phase would fail."""

    @app.after_request
    def lose_a_field(response):
        response.set_data(b'{"status": "ok"}')
        return response

    assert client.get("/health").status_code == 200
    report = documented.reported()  # taken (and forgotten) here, so this test itself passes
    assert report == ('GET /health -> 200: the answer breaks the OpenAPI document:\n'
                      '  (body): "database" is a required property')
