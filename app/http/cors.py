"""Calls from web pages on other origins (CORS), with the headers flask-cors computes: a public
endpoint answers any origin; one that takes a token answers only the origins in CORS_ORIGINS.

A preflight (OPTIONS with Access-Control-Request-Method) is answered here, before the spec's OPTIONS
self-description, which every other OPTIONS still gets. Whether an endpoint is public is read from
its view's auth declaration (app/http/smorest.py), per method: one path can hold a public POST and
a GET that takes a token.
"""
from flask import current_app
from flask_cors.core import ACL_REQUEST_METHOD, get_cors_headers, get_cors_options
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from app.http.current import current_request, view_declaration

# What browsers' clients send: the token, JSON, the conditional-write validators, the idempotency key.
REQUEST_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
                   "X-Request-Id", "x-caller-id"]
# What a page's script may read beside the CORS-safelisted headers.
EXPOSED_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-Id", "WWW-Authenticate",
                   "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
MAX_AGE_S = 600


def parse_origins(value):
    """CORS_ORIGINS: origins separated by commas or spaces (`https://shop.example`); empty: none."""
    return [origin.strip().rstrip("/") for origin in value.replace(",", " ").split() if origin.strip()]


def init_app(app):
    common = {"allow_headers": REQUEST_HEADERS, "expose_headers": EXPOSED_HEADERS, "methods": METHODS,
              "max_age": MAX_AGE_S, "supports_credentials": False, "send_wildcard": True}
    app.extensions["cors"] = {
        "public": get_cors_options(app, common, {"origins": "*"}),
        # No origin matches an empty list: cross-origin calls with a token are off until an
        # operator names the pages allowed to make them.
        "token": get_cors_options(app, common, {"origins": parse_origins(app.config["CORS_ORIGINS"]) or [],
                                                "send_wildcard": False}),
    }


def _auth_of(method):
    """"public" or "token": the auth declared on the view that serves this path and `method`."""
    request = current_request()
    try:
        endpoint, _ = current_app.create_url_adapter(request).match(request.path, method=method)
    except HTTPException:
        return None
    # A view without a declaration is treated as one that takes a token: the stricter answer.
    return view_declaration(endpoint, method, "auth_mode", "token")


def _headers(method):
    request = current_request()
    auth = _auth_of(method) if "Origin" in request.headers else None
    if auth is None:
        return MultiDict()
    return get_cors_headers(current_app.extensions["cors"][auth], request.headers, request.method)


def answer_preflight():
    request = current_request()
    if request.method != "OPTIONS" or ACL_REQUEST_METHOD not in request.headers:
        return None
    response = current_app.response_class(status=204)
    response.headers.extend(_headers(request.headers[ACL_REQUEST_METHOD].upper()))
    return response


def add_cors_headers(response):
    request = current_request()
    if request.method != "OPTIONS":
        for name, value in _headers(request.method).items(multi=True):
            if name == "Vary":
                response.vary.add(value)
            else:
                response.headers[name] = value
    return response
