"""flask-smorest customised in one place: 400 error object, auth declarations, error docs.

Views import Api and Blueprint from here, never from flask_smorest directly.
"""
import http
import re
from copy import deepcopy

import flask_smorest
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import get_fields, resolve_schema_instance
from flask import current_app
from flask_smorest.etag import ETAG_HEADER, IF_NONE_MATCH_HEADER
from flask_smorest.utils import prepare_response

from app.errors import STATUS
from app.http import errors
from app.http.auth import guard
from app.http.bodies import LenientBodyParser
from app.http.document import StrictDocumentPlugin, field_rules, response_headers
from app.http.etag import OPTIONAL_IF_MATCH, ItemStateEtagMixin
from app.http.jsonp import CALLBACK, CALLBACK_MAX_LENGTH
from app.http.shared_document import SharedDocumentMixin
from app.replicas import reads_from_replica
from app.services.auth.ownership import checked_item
from schemas.common import Answer, ErrorSchema

BEARER = [{"bearerAuth": []}]
# /oauth/token: client credentials in the body (no scheme), or as HTTP Basic (RFC 6749 2.3.1).
CLIENT_AUTHENTICATION = [{}, {"basicAuth": []}]


class ArgumentsParser(LenientBodyParser):
    # Our contract answers invalid input with 400 and the error object, not webargs' 422.
    DEFAULT_VALIDATION_STATUS = 400


# The shared hooks' query parameters, documented once: as components any operation may use, and in the
# document's description. Declared on every operation (with a second `text/javascript` answer), they made
# generators type each body as `T | string` and importers send them with placeholder values.
CONVENTION_PARAMETERS = {
    "callback": {
        "in": "query", "name": "callback", "required": False,
        "description": "JSONP: answer 200 `text/javascript` `/**/callback([status, {header: [values]}, body]);` "
                       "whatever the real status; an invalid name is a plain 400 `invalid_callback`",
        "schema": {"type": "string", "pattern": CALLBACK.pattern, "maxLength": CALLBACK_MAX_LENGTH},
    },
    "attributes": {
        "in": "query", "name": "attributes", "required": False,
        "description": "Comma-separated top-level fields to keep in a successful body (of each element "
                       "when the body is an array); error bodies are never reduced",
        "schema": {"type": "string"},
    },
}
# How a client gets the bearer tokens, for tools that read it (schemathesis tells a token
# endpoint's refusal of unknown credentials from a refusal of a well-formed request by it).
OAUTH2_SCHEME = {
    "type": "oauth2", "description": "The tokens `bearerAuth` sends come from POST /oauth/token",
    "flows": {"clientCredentials": {"tokenUrl": "/oauth/token",
                                    "scopes": {"read": "Read the user's data", "write": "Change it"}}},
}
CONVENTIONS_DESCRIPTION = """

## Conventions every operation accepts

They are not repeated in each operation, so that generated clients keep one JSON type per answer.

- `callback` (query, components/parameters/callback): JSONP. The answer is always 200
  `text/javascript; charset=utf-8`, `/**/callback([status, {header: [values]}, body]);`, with the real
  status, headers and JSON body inside, errors included. An invalid name answers a plain 400
  `invalid_callback`.
- `attributes` (query, components/parameters/attributes): comma-separated top-level fields to keep in a
  successful body (in each element when the body is an array). Error bodies are never reduced.
"""


def error_example(status, codes=()):
    """A real error object for a status (of one of its `codes` when given, preferring one the
    docs have a message for), as the docs' example of that error response."""
    phrase = http.HTTPStatus(status).phrase
    generic = errors.HTTP_ERROR_CODES.get(status, phrase.lower().replace(" ", "_").replace("-", "_"))
    code = next((c for c in codes if c in errors.EXAMPLE_MESSAGES), codes[0] if codes else generic)
    if code == "validation_error" or (status == 400 and not codes):
        return {"message": "Invalid request. products.0.id: Missing data for required field.",
                "error": "validation_error", "status": 400,
                "cause": [{"code": "required", "message": "Missing data for required field.",
                           "field": "products.0.id"}]}
    return {"message": errors.EXAMPLE_MESSAGES.get(code, phrase), "error": code, "status": status, "cause": []}


def declare_errors(view, *pairs, first=False):
    """Adds (status, code) pairs to the errors a view declares (its `_apidoc`, as flask-smorest's
    decorators keep theirs), `first` for those checked before the others (auth);
    `Blueprint._prepare_errors_doc` documents them."""
    view._apidoc = deepcopy(getattr(view, "_apidoc", {}))  # may be shared with the wrapped view
    declared = [pair for pair in view._apidoc.get("errors", ()) if pair not in pairs]
    view._apidoc["errors"] = [*pairs, *declared] if first else [*declared, *pairs]
    return view


def raw_json(body):
    """A 200 JSON response of a body already in wire shape, which `@blp.response` passes through
    without dumping it (the schema still documents the operation).

    The one documented exception to "schemas are the wire format", used by the compatibility
    list (endpoint 12) alone: an item lists up to 10,000 entries, and dumping them with
    marshmallow was a large share of the request. Its service builds
    exactly what the schema would dump (keys, their order, types), and
    tests/compat/test_list_wire.py compares the two byte for byte.
    """
    return current_app.json.response(body)


def operation_id(method, endpoint):
    return f"{method}_{re.sub(r'(?<!^)(?=[A-Z])', '_', endpoint).lower()}"


class AnswerConverter(OpenAPIConverter):
    """apispec's converter, which documents the fields of a response schema (marked
    `schemas.common.Answer`) as required unless their metadata says when they are `optional`."""

    def schema2jsonschema(self, schema):
        jsonschema = super().schema2jsonschema(schema)
        if isinstance(resolve_schema_instance(schema), Answer):
            required = {field.data_key or name for name, field in get_fields(schema).items()
                        if not field.load_only and "optional" not in field.metadata}
            if required:
                jsonschema["required"] = sorted(required | set(jsonschema.get("required", ())))
        return jsonschema


class AnswerPlugin(MarshmallowPlugin):
    Converter = AnswerConverter


class Api(SharedDocumentMixin, flask_smorest.Api):
    ERROR_SCHEMA = ErrorSchema

    def _register_responses(self):
        """flask-smorest's per-status error responses, each with an example of our error object."""
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            headers = response_headers(status)
            if headers:
                response["headers"] = headers
            if status >= 400:
                response.update(schema=self.ERROR_SCHEMA, example=error_example(status))
            prepare_response(response, self.spec, self.DEFAULT_RESPONSE_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        default = {"description": "Default error response", "schema": self.ERROR_SCHEMA,
                   "example": error_example(500)}
        prepare_response(default, self.spec, self.DEFAULT_RESPONSE_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", default, lazy=True)

    def _register_etag_headers(self):
        """As flask-smorest's, but If-Match is optional (H3)."""
        self.spec.components.parameter("IF_NONE_MATCH", "header", IF_NONE_MATCH_HEADER, lazy=True)
        self.spec.components.parameter("IF_MATCH", "header", OPTIONAL_IF_MATCH, lazy=True)
        self.spec.components.header("ETAG", ETAG_HEADER, lazy=True)

    def _register_error_handlers(self):
        errors.init_app(self._app)

    def init_app(self, app, *, spec_kwargs=None):
        # Those given to the constructor too: flask-smorest merges them under these, key by key, so an
        # `info` of ours alone would replace theirs (the API's description).
        self._given_spec_kwargs = {**self._spec_kwargs, **(spec_kwargs or {})}
        super().init_app(app, spec_kwargs=self._new_spec_kwargs())
        self._document_conventions()

    def _new_spec_kwargs(self):
        """The APISpec's arguments, with plugins of its own (a plugin serves one document)."""
        spec_kwargs = dict(self._given_spec_kwargs)
        spec_kwargs.setdefault("marshmallow_plugin", AnswerPlugin())
        info = spec_kwargs["info"] = {**spec_kwargs.get("info", {})}
        info["description"] = info.get("description", "") + CONVENTIONS_DESCRIPTION
        spec_kwargs.setdefault("servers", [{"url": "/", "description": "This server"}])
        spec_kwargs["extra_plugins"] = [*spec_kwargs.get("extra_plugins", ()), StrictDocumentPlugin()]
        return spec_kwargs

    def _document_conventions(self):
        """What every operation shares: the conventions' parameters, the security schemes."""
        self.ma_plugin.converter.add_attribute_function(field_rules)
        for name, parameter in CONVENTION_PARAMETERS.items():
            self.spec.components.parameter(name, parameter["in"], parameter)
        self.spec.components.security_scheme(
            "bearerAuth", {"type": "http", "scheme": "bearer",
                           "description": "Authorization: Bearer <access token>"})
        self.spec.components.security_scheme(
            "basicAuth", {"type": "http", "scheme": "basic",
                          "description": "POST /oauth/token only: client_id and client_secret as HTTP Basic"})
        self.spec.components.security_scheme("oauth2", OAUTH2_SCHEME)


class Blueprint(ItemStateEtagMixin, flask_smorest.Blueprint):
    """Views declare their error responses once, by code: `@blp.errors("item_not_found", ...)`,
    plus what `auth` (401/403 `invalid_token`), `arguments` (400 `validation_error`, and `invalid_json`
    for a body) and `item_compatibility_write` (412 `precondition_failed`) imply. The OpenAPI responses
    (one per status, listing its codes) and OPTIONS come from that."""

    ARGUMENTS_PARSER = ArgumentsParser()
    # A form-or-JSON body is documented as a request body, not as "in: json_or_form" parameters.
    DEFAULT_LOCATION_CONTENT_TYPE_MAPPING = {
        **flask_smorest.Blueprint.DEFAULT_LOCATION_CONTENT_TYPE_MAPPING,
        "json_or_form": "application/x-www-form-urlencoded",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._prepare_doc_cbks.append(self._prepare_errors_doc)
        self._prepare_doc_cbks.append(self._prepare_json_or_form_doc)

    def arguments(self, schema, *args, **kwargs):
        """As flask-smorest's, but a schema class is instantiated once here: webargs would build
        it (nested schemas and their deep-copied fields included) on every request. Declares
        400 `validation_error`."""
        if isinstance(schema, type):
            schema = schema()
        parse = super().arguments(schema, *args, **kwargs)
        declared = [(400, "validation_error")]
        if kwargs.get("location", "json") in ("json", "json_or_form"):
            declared.append((400, "invalid_json"))  # app/http/bodies.read_json
        return lambda view: declare_errors(parse(view), *declared)

    def auth(self, mode="token", *, reads="primary", invalid_status=401, owner=None, message=None,
             item=checked_item, security=()):
        """Declares who may call the view: "public", or "token" (optionally with an
        `owner(view_kwargs, caller_id)` permission check; `message` fixes the refusal's text where
        the spec gives it). On a route with an item in its path, the view gets the item's row as
        `item`, which `item(item_id, row)` checks (app/http/auth.py, guard). Put it above the other
        decorators so that a caller without a token learns that before anything else. A public
        view may declare the `security` it accepts besides none (CLIENT_AUTHENTICATION).
        `reads="replica"`: the view only reads data no caller owns, which a read replica may serve
        (app/replicas); its token, if it takes one, is still checked on the primary."""
        if reads not in ("primary", "replica"):
            raise ValueError(f"unknown reads {reads!r}: primary or replica")
        route = reads_from_replica if reads == "replica" else (lambda view: view)
        if mode == "public":
            def public(view):
                view = route(view)
                view.auth_mode = "public"  # read by app/http/cors.py
                return self.doc(security=list(security))(view)

            return public
        if mode != "token":
            raise ValueError(f"unknown auth mode {mode!r}")

        def decorator(view):
            wrapped = guard(route(view), invalid_status=invalid_status, owner=owner, message=message, item=item)
            wrapped.auth_mode = "token"
            # What the item and owner checks raise is declared with the view's errors (the test of
            # the declarations follows them from here).
            wrapped.auth_owner, wrapped.auth_item = owner, item
            declare_errors(wrapped, (invalid_status, "invalid_token"), first=True)
            return self.doc(security=BEARER)(wrapped)

        return decorator

    def item_compatibility_write(self, view):
        """The mixin's compatibility write (app/http/etag.py), declaring the 412 its If-Match check answers."""
        return declare_errors(super().item_compatibility_write(view), (412, "precondition_failed"))

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        """Each operation gets a stable, readable operationId, `<method>_<view in snake case>`
        (get_item_compatibilities): generated clients name their functions after it."""
        for endpoint, doc_info in self._docs.items():
            for method, operation in doc_info.items():
                if method != "parameters":
                    operation.setdefault("manual_doc", {}).setdefault("operationId", operation_id(method, endpoint))
        super().register_views_in_doc(api, app, spec, name=name, parameters=parameters)

    def errors(self, *codes):
        """Declares the error codes (app.errors.CODES) a view answers besides those its `auth`
        and `arguments` imply; an unknown code fails at import."""
        unknown = [code for code in codes if code not in STATUS]
        if unknown:
            raise ValueError(f"unknown error codes {unknown}: add them to app.errors.CODES")
        return lambda view: declare_errors(view, *((STATUS[code], code) for code in codes))

    def read(self, schema, *codes, auth="token", reads="primary", item=checked_item, **response_kwargs):
        """A view that only reads (a GET, or a POST whose body is a query) and answers 200 `schema`:
        `auth(auth, reads=reads, item=item)`, `errors(*codes)` and `response(200, schema, **response_kwargs)`
        in one, so the document and OPTIONS are those of the three. Its `arguments` go below it, so
        that a caller without a token hears that before any 400.
        Writes, and views with an owner check, write their decorators out: those are worth reading."""
        guard = self.auth(auth, reads=reads, item=item)
        declare, respond = self.errors(*codes), self.response(200, schema, **response_kwargs)
        return lambda view: guard(declare(respond(view)))

    @staticmethod
    def _prepare_json_or_form_doc(doc, doc_info, **kwargs):
        """A `json_or_form` body is documented as both media types, with the same schema."""
        content = doc.get("requestBody", {}).get("content", {})
        if "application/x-www-form-urlencoded" in content:
            content.setdefault("application/json", deepcopy(content["application/x-www-form-urlencoded"]))
        return doc

    @staticmethod
    def _prepare_errors_doc(doc, doc_info, *, api, spec, **kwargs):
        """One response per declared status: the error object, its codes in the description (as
        `x-error-codes` too, which OPTIONS reads), and an example of one of them."""
        by_status = {}
        for status, code in doc_info.get("errors", ()):
            by_status.setdefault(status, []).append(code)
        responses = {}
        for status, codes in sorted(by_status.items()):
            response = {"description": f"{http.HTTPStatus(status).phrase}: " + ", ".join(f"`{c}`" for c in codes),
                        "schema": api.ERROR_SCHEMA, "example": error_example(status, codes)}
            prepare_response(response, spec, api.DEFAULT_RESPONSE_CONTENT_TYPE)
            responses[status] = {**response, "x-error-codes": codes}
        doc.setdefault("responses", {}).update(responses)
        return doc
