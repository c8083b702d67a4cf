"""OPTIONS self-description, generated from the route's entry in the OpenAPI document."""
import re

from flask import current_app, jsonify
from flask_smorest.spec.plugins import FlaskPlugin

from app.http.current import current_request

PATH_PARAM = re.compile(r"{([^}]+)}")


def _spec():
    cache = current_app.extensions.setdefault("options_spec", {})
    if "spec" not in cache:
        api = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
        cache["spec"] = api.spec.to_dict()
    return cache["spec"]


def _resolve(spec, schema):
    while isinstance(schema, dict) and "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    if isinstance(schema, dict) and schema.get("type") == "array":
        return _resolve(spec, schema.get("items", {}))
    return schema or {}


def _attributes(spec, operation):
    """Fields of the success response, each with its documented description."""
    for status, response in sorted(operation.get("responses", {}).items()):
        if not str(status).startswith("2"):
            continue
        content = response.get("content", {}).get("application/json")
        if content is None:  # the JSONP-only 200 of an operation that answers 201
            continue
        schema = _resolve(spec, content.get("schema"))
        return {name: prop.get("description") or prop.get("type", "object")
                for name, prop in schema.get("properties", {}).items()}
    return {}


def _errors(operation):
    """The errors the operation declares, as its error responses list them (app/http/smorest.py)."""
    return [{"status": int(status), "error": code}
            for status, response in sorted(operation.get("responses", {}).items(), key=lambda r: str(r[0]))
            for code in response.get("x-error-codes", ())]


def _title(endpoint):
    """"common.CurrencyById" -> "Currency by id": the view's name, read as words."""
    view = endpoint.rsplit(".", 1)[-1]
    words = re.findall(r"[A-Z][a-z0-9]*|[a-z0-9]+", view)
    return " ".join([words[0]] + [w.lower() for w in words[1:]]) if words else ""


def describe(rule):
    spec = _spec()
    path = FlaskPlugin.flaskpath2openapi(rule.rule)
    operations = spec["paths"].get(path, {})
    methods, attributes, summary, name = [], {}, "", None
    for method in ("get", "post", "put", "patch", "delete"):
        operation = operations.get(method)
        if not operation:
            continue
        name = name or (operation.get("tags") or [None])[0]
        summary = summary or operation.get("summary", "")
        attributes = attributes or _attributes(spec, operation)
        methods.append({"method": method.upper(), "example": path,
                        "description": operation.get("summary", ""), "errors": _errors(operation)})
    params = PATH_PARAM.findall(path)
    return {
        "name": _title(rule.endpoint) or name or path,
        "description": summary,
        "attributes": attributes,
        "methods": methods,
        "related_resources": sorted(p for p in spec["paths"]
                                    if p.startswith(path.rstrip("/") + "/")),
        "connections": {param: candidate for param in params for candidate in spec["paths"]
                        if candidate.endswith("/{" + param + "}") and candidate != path},
    }


def answer_options():
    """Answered before any database work; an unknown path falls through to the 404."""
    request = current_request()
    if request.method != "OPTIONS" or request.url_rule is None:
        return None
    description = describe(request.url_rule)
    response = jsonify(description)
    # A path may be served by several rules (one per area); Allow lists all their methods.
    allowed = {m["method"] for m in description["methods"]} | {"OPTIONS"}
    response.headers["Allow"] = ", ".join(sorted(allowed))
    return response
