"""The OpenAPI document made as strict as the server, in one apispec plugin (app/http/smorest.py adds it).

- Path parameters get the shape the server accepts (a pattern where ids have a fixed one) and an
  example that exists in the demo (`flask --app wsgi demo`), so that the docs page's "Try it out"
  answers; tests/http/test_document_strict.py requests each one from a demo-loaded app.
- A request schema declares what marshmallow checks in a `validates_schema` and apispec cannot see,
  in a class attribute `OPENAPI` (not inherited) merged into its component: `oneOf` / `anyOf` of the
  body's variants, `minProperties`, or `required` in the document only (where the service answers
  its own error for a missing one). Loading and the 400 messages are the schemas' own, unchanged.
- An enum never lists `null` (marshmallow's OneOf with allow_none adds it): `nullable` says it,
  and generators turned the literal into duplicate members.
- Text in a request holds no NUL character (app/json_input.py and app/http/hooks.py refuse it:
  PostgreSQL cannot store it), which body schemas (StrictSchema) and query parameters say with a
  pattern where they have none.
- 429 and 503 answers document their `Retry-After` header, a 304 its `ETag`.
"""
import json

from apispec import BasePlugin
from marshmallow import fields

from schemas.common import StrictSchema
from schemas.vocabulary import ITEM_ID_PATTERN, NO_NUL_PATTERN, PRODUCT_ID_PATTERN

DEMO_ITEM = "MLA1500000031"  # seller 1001's brake pads, with compatibilities

# name: (schema additions, demo example); PATH_EXAMPLES overrides the example for one path.
PATH_PARAMETERS = {
    "item_id": ({"pattern": ITEM_ID_PATTERN}, DEMO_ITEM),
    "product_id": ({"pattern": PRODUCT_ID_PATTERN}, "MLA15903638"),
    "compatibility_id": ({"maxLength": 36}, "019bdb46-aa00-78e0-bed2-04b13a7bcc73"),
    "order_id": ({"pattern": r"^\d{1,18}$"}, "2000004512"),
    "site_id": ({"pattern": "^[A-Z]{3}$"}, "MLA"),
    "currency_id": ({"pattern": "^[A-Z]{3}$"}, "ARS"),
    "domain_id": ({"maxLength": 100}, "MLA-CARS_AND_VANS"),
    "attribute_id": ({"maxLength": 100}, "MODEL"),
    "chart_id": ({"pattern": "^[0-9]{1,18}$"}, "426201"),
    "row_id": ({"pattern": "^[0-9]{1,18}:[0-9]{1,9}$"}, "426201:1"),
    "job_id": ({"format": "uuid"}, "00000000-0000-4000-8000-000000000000"),
    "client_id": ({"pattern": "^[0-9]{1,18}$"}, "5501"),
    "user_id": ({}, 1001),
    "seller_id": ({}, 1001),
}
PATH_EXAMPLES = {
    "/domains/{domain_id}/technical_specs": {"domain_id": "MLA-T_SHIRTS"},
    "/catalog/charts/{site_id}/configurations/active_domains": {"site_id": "MLA"},
    "/catalog_domains/{domain_id}/compatibilities/cards": {"domain_id": "MLA-BRAKE_PADS"},
    "/items/catalog_domains/{domain_id}/compatibilities/cards": {"domain_id": "MLA-BRAKE_PADS"},
}

RETRY_AFTER = {"description": "Seconds to wait before trying again", "required": True,
               "schema": {"type": "integer", "minimum": 0}}
NOT_MODIFIED_ETAG = {"description": "The tag the 200 answer would have", "required": True,
                     "schema": {"type": "string"}}
RESPONSE_HEADERS = {429: {"Retry-After": RETRY_AFTER}, 503: {"Retry-After": RETRY_AFTER},
                    304: {"ETag": NOT_MODIFIED_ETAG}}


def response_headers(status):
    """The headers a response of `status` always carries, as OpenAPI header objects."""
    return {name: dict(header) for name, header in RESPONSE_HEADERS.get(int(status), {}).items()}


def without_null_enums(node):
    """`node` with `null` taken out of every enum (in place)."""
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list) and None in node["enum"]:
            node["enum"] = [value for value in node["enum"] if value is not None]
            node["nullable"] = True
        for value in node.values():
            without_null_enums(value)
    elif isinstance(node, list):
        for value in node:
            without_null_enums(value)
    return node


def without_nul(schema):
    """A text's schema (in place) says it holds no NUL, unless its pattern, enum or format says more."""
    if not {"pattern", "enum", "format"} & set(schema):
        schema["pattern"] = NO_NUL_PATTERN


def field_rules(_converter, field, ret, **kwargs):
    """Runs last on each field's property (MarshmallowPlugin attribute function): `null` out of its
    enum, no NUL in the plain text fields of request bodies and 64-bit bounds on their integers
    (`ret` changed in place)."""
    without_null_enums(ret)
    if isinstance(field, fields.String) and isinstance(field.root, StrictSchema):
        without_nul(ret)
    if isinstance(field, fields.Integer) and isinstance(field.root, StrictSchema):
        # The JSON parser reads 64-bit integers, and answers invalid_json past them.
        ret.setdefault("minimum", -2 ** 63)
        ret.setdefault("maximum", 2 ** 63 - 1)
    return {}


def plain_nullable(prop):
    """apispec writes a nested schema that may be null as `anyOf: [$ref, {type: object, nullable}]`,
    which generators turn into a union with an empty object; `allOf: [$ref]` with `nullable` says the
    same (the schema, or null) in the form OpenAPI 3.0 gives for it."""
    variants = prop.get("anyOf")
    if (isinstance(variants, list) and len(variants) == 2 and "$ref" in variants[0]
            and variants[1] == {"type": "object", "nullable": True}):
        del prop["anyOf"]
        prop.update(allOf=[variants[0]], nullable=True)


class StrictDocumentPlugin(BasePlugin):
    def init_spec(self, spec):
        self.spec = spec

    def schema_helper(self, name, definition, **kwargs):
        for prop in (definition.get("properties") or {}).values():
            plain_nullable(prop)
            if "default" in prop:
                # openapi-typescript types a property with a default as always there, a request's
                # too: clients would have to send it, and would count on an answer the server may
                # leave out. The default is the server's to apply; the description says it.
                default = prop.pop("default")
                prop["description"] = f"{prop.get('description', '')} (default: {json.dumps(default)})".lstrip()
        schema = kwargs.get("schema")
        cls = schema if isinstance(schema, type) else type(schema)
        return dict(vars(cls)["OPENAPI"]) if "OPENAPI" in vars(cls) else None

    def path_helper(self, path=None, operations=None, parameters=None, **kwargs):
        examples = PATH_EXAMPLES.get(path, {})
        for parameter in parameters or ():
            if isinstance(parameter, dict) and parameter.get("in") == "path" and parameter["name"] in PATH_PARAMETERS:
                schema_extra, example = PATH_PARAMETERS[parameter["name"]]
                parameter["schema"] = {**parameter.get("schema", {}), **schema_extra}
                if schema_extra.get("pattern") or schema_extra.get("format"):
                    parameter["schema"].pop("minLength", None)
                parameter["example"] = examples.get(parameter["name"], example)
        return None

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            for status, response in operation.get("responses", {}).items():
                if str(status).isdigit() and isinstance(response, dict) and "$ref" not in response:
                    headers = response_headers(status)
                    if headers:
                        response.setdefault("headers", {}).update(headers)
            for parameter in operation.get("parameters", []):
                # A NUL anywhere in the query is refused too (app/http/hooks.py).
                schema = parameter.get("schema", {}) if isinstance(parameter, dict) else {}
                if schema.get("type") == "string":
                    without_nul(schema)
