"""The document never promises more than the server answers: every JSON answer the test suite
gets is validated against the OpenAPI document's schema for its operation and status.

The check runs in the server, on Flask's `request_finished` signal, so it sees the answers of the
test client and of the live servers (tests/clients' `live`) alike, with the request's own route.
A mismatch (a required field missing, a wrong type, an unexpected null, a status or a JSON body
the operation does not document) is recorded and fails the running test (tests/conftest.py,
`pytest_runtest_call`). Left out: answers that are not JSON (JSONP's `text/javascript`, the docs'
files), bodies reduced by `attributes`, and routes the document does not have (OPTIONS, /docs).

Cheap: the document is read once per app, and a schema is compiled once per process for each
distinct document (an app whose settings change nothing in it shares its validators).
"""
import gzip
import json
import re
import threading
import weakref

import jsonschema_rs
from flask import request, request_finished

MISMATCHES = []  # (request, problem) since the current test began
_lock = threading.Lock()
_documents = []  # [(document, {(path, method, status): validator or None})], one per distinct document
_by_app = weakref.WeakKeyDictionary()  # app -> (document, validators)
_RULE_ARGUMENT = re.compile(r"<(?:[^<>:]+:)?([^<>]+)>")


def plain(node):
    """OpenAPI 3.0 schema keywords as JSON Schema: `nullable` becomes a null branch, component $refs
    point into `$defs` (so recursive schemas such as a sheet's nested components stay finite)."""
    if isinstance(node, list):
        return [plain(value) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: plain(value) for key, value in node.items() if key not in ("nullable", "example", "examples")}
    if "$ref" in out:
        out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/$defs/")
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def json_schema(document, node):
    """A JSON Schema of `node` (a schema of the document), the document's components as `$defs`."""
    definitions = {name: plain(schema) for name, schema in document["components"]["schemas"].items()}
    return {"$defs": definitions, "allOf": [plain(node)]}


def document_of(app):
    """(the app's OpenAPI document, the validators compiled for it); None for an app without one."""
    found = _by_app.get(app)
    if found is None:
        apis = app.extensions.get("flask-smorest", {}).get("apis", {})
        if "" not in apis:
            return None
        document = apis[""]["ext_obj"].spec.to_dict()
        with _lock:
            found = next((known for known in _documents if known[0] == document), None)
            if found is None:
                found = (document, {})
                _documents.append(found)
        _by_app[app] = found
    return found


def operation_path(rule):
    """The document's path of a Flask rule: `/items/<item_id>` is `/items/{item_id}`."""
    return _RULE_ARGUMENT.sub(r"{\1}", rule)


def resolve(document, node):
    while isinstance(node, dict) and "$ref" in node:
        _, section, kind, name = node["$ref"].split("/")
        node = document[section][kind][name]
    return node


def validator(document, validators, key, node):
    if key not in validators:
        validators[key] = jsonschema_rs.validator_for(json_schema(document, node))
    return validators[key]


def problems(app, response):
    """What is wrong with `response` (to the current request) by the app's document: a list of
    messages, empty when it conforms or is not checked."""
    if response.is_streamed or response.mimetype != "application/json" or request.url_rule is None:
        return []
    if "callback" in request.args or "attributes" in request.args:
        return []
    found = document_of(app)
    if found is None:
        return []
    document, validators = found
    path = operation_path(request.url_rule.rule)
    method = request.method.lower()
    operation = document["paths"].get(path, {}).get(method)
    if operation is None:
        return []
    data = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        data = gzip.decompress(data)
    if not data:
        return []
    status = str(response.status_code)
    responses = operation["responses"]
    documented = resolve(document, responses.get(status) or responses.get("default"))
    if documented is None:
        return [f"status {status} is not documented"]
    media = documented.get("content", {}).get("application/json")
    if media is None:
        return [f"status {status} is documented without a JSON body"]
    if "schema" not in media:
        return []
    check = validator(document, validators, (path, method, status), media["schema"])
    body = json.loads(data)
    return [f"{'/'.join(map(str, error.instance_path)) or '(body)'}: {error.message}"
            for error in list(check.iter_errors(body))[:5]]


def check_response(app, response, **extra):
    """The `request_finished` receiver: records the answer's problems in MISMATCHES."""
    found = problems(app, response)
    if found:
        MISMATCHES.append((f"{request.method} {request.full_path.rstrip('?')} -> {response.status_code}", found))


def install():
    request_finished.connect(check_response)


def reported():
    """The mismatches recorded since the last call, as one message (empty when none), forgotten."""
    found, MISMATCHES[:] = list(MISMATCHES), []
    return "\n".join(f"{where}: the answer breaks the OpenAPI document:\n  " + "\n  ".join(found_problems)
                     for where, found_problems in found)
