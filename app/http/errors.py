"""One error path: every failure becomes the error object {message, error, status, cause}."""
import logging
import time

from flask import g, jsonify
from gunicorn.http.errors import NoMoreData, ParseException
from peewee import DatabaseError, IntegrityError, InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException

from app.db_faults import describe_failure, storage_fault
from app.errors import ApiError
from app.http.ratelimit import limiter

log = logging.getLogger("app.errors")

# Codes for werkzeug's HTTP errors, by status.
HTTP_ERROR_CODES = {
    400: "bad_request", 401: "invalid_token", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 406: "not_acceptable", 409: "conflict",
    412: "precondition_failed", 413: "request_entity_too_large", 415: "unsupported_media_type",
    429: "local_rate_limited",
    500: "internal_error", 503: "service_unavailable",
}

# What the examples of the OpenAPI document show for an error code (the status's phrase otherwise).
EXAMPLE_MESSAGES = {
    "invalid_token": "Missing access token: send Authorization: Bearer <token>",
    "invalid_item_id": "Item id 'MLA-1' is malformed: expected a site id and digits, e.g. MLA123456",
    "forbidden": "Caller must be the seller of the item",
    "not_found": "Item MLA1500000099 does not exist",
    "item_not_found": "Item MLA1500000099 does not exist",
    "domain_not_found": "Domain MLA-CARS_AND_VANS_X does not exist",
    "site_not_found": "Site MXX does not exist",
    "method_not_allowed": "The method is not allowed for the requested URL.",
    "conflict": "The request conflicts with the current state of the resource; read it again and retry",
    "precondition_failed": "The item's compatibilities changed since the ETag sent in If-Match; read them again "
                           "(GET /items/{item_id}/compatibilities) and retry with the new ETag",
    "request_entity_too_large": "Request body too large: the limit is 1 MiB",
    "local_rate_limited": "Too many requests: rate limit 100 per 1 minute exceeded; retry later",
    "internal_error": "Internal server error; quote request id 6f1c2a9e0b7d4c35a1e2f3b4c5d6e7f8 when reporting it",
    "service_unavailable": "The database is unavailable; retry later",
    "invalid_json": "Invalid JSON body: nested more than 64 levels deep at byte 64; send at most 64 levels",
}

# Marshmallow's default messages, mapped back to a stable code for `cause`.
VALIDATION_CODES = {
    "Missing data for required field.": "required",
    "Unknown field.": "unknown_field",
    "Field may not be null.": "null",
    "Invalid JSON body.": "invalid_json",
}


def error_response(status, error, message, cause=(), headers=None, extra=None):
    body = {"message": message, "error": error, "status": status, "cause": list(cause)}
    body.update({key: value for key, value in (extra or {}).items() if key not in body})
    response = jsonify(body)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _flatten(messages, path=()):
    """webargs' nested {field: {index: [messages]}} as (dotted path, message) pairs."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            yield from _flatten(value, path + (str(key),))
    elif isinstance(messages, (list, tuple)):
        for value in messages:
            if isinstance(value, (dict, list, tuple)):
                yield from _flatten(value, path)
            else:
                yield ".".join(p for p in path if p != "_schema"), str(value)
    else:
        yield ".".join(p for p in path if p != "_schema"), str(messages)


def validation_causes(messages):
    causes = []
    for location, errors in messages.items():
        for field, message in _flatten(errors):
            causes.append({"code": VALIDATION_CODES.get(message, "invalid"),
                           "message": message, "field": field or location})
    return causes


def handle_api_error(exc):
    return error_response(exc.status, exc.error, exc.message, exc.cause, exc.headers, exc.extra)


def handle_http_exception(exc):
    status = exc.code or 500
    if status == 304:  # flask-smorest's NotModified: no body, the ETag header set where raised
        return exc.get_response()
    data = getattr(exc, "data", None) or {}
    if "messages" in data:  # webargs validation failure
        causes = validation_causes(data["messages"])
        summary = "; ".join(f"{c['field']}: {c['message']}" for c in causes[:5])
        return error_response(400, "validation_error", f"Invalid request. {summary}", causes)
    headers = {}
    # Keep what the status needs: Allow on 405, Retry-After on 429.
    for name in ("Allow", "Retry-After", "WWW-Authenticate"):
        value = exc.get_response().headers.get(name)
        if value:
            headers[name] = value
    message = data.get("message") or exc.description or exc.name
    if status == 429:
        message = f"Too many requests: rate limit {exc.description} exceeded; retry later"
        headers.setdefault("Retry-After", str(_retry_after()))
    if status == 413:
        message = "Request body too large: the limit is 1 MiB"
    return error_response(status, HTTP_ERROR_CODES.get(status, exc.name.lower().replace(" ", "_")),
                          message, headers=headers)


def _retry_after():
    """Seconds until the breached limit's window ends. flask-limiter takes the later of this and its
    own reset time, so a fixed 60 here made a 30-second window say 60."""
    try:
        current = limiter.current_limit
        return max(1, int(current.reset_at - time.time())) if current else 60
    except Exception:  # the storage (Redis) is failing: a default rather than no header
        return 60


def handle_integrity_error(exc):
    log.warning("integrity error: %s", exc)
    return error_response(409, "conflict", "The request conflicts with the current state "
                          "of the resource; read it again and retry")


def handle_database_unavailable(exc):
    log.error("database unavailable: %s", describe_failure(exc))
    return error_response(503, "service_unavailable",
                          "The database is unavailable; retry later", headers={"Retry-After": "5"})


def handle_database_error(exc):
    """A database error of another class: 503 when it is a storage fault (PostgreSQL reports a
    read-only filesystem as a permission, a standby's refusal as an internal error), else a bug."""
    if storage_fault(exc) is not None:
        return handle_database_unavailable(exc)
    return handle_unexpected(exc)


def handle_malformed_body(exc):
    # gunicorn parses a chunked body only as the app reads it, so a malformed one (or a client gone
    # mid-body) fails inside the app, not in gunicorn's own rejections (app/deploy/worker.py).
    log.warning("malformed request body: %s", exc)
    return error_response(400, "bad_request", f"Malformed request body ({str(exc)[:200]}); send it whole, "
                          "with Content-Length or valid chunked encoding")


def handle_unexpected(exc):
    log.exception("unhandled error (request id %s)", g.get("request_id", "-"))
    return error_response(500, "internal_error",
                          f"Internal server error; quote request id {g.get('request_id', '-')} "
                          "when reporting it")


def init_app(app):
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(IntegrityError, handle_integrity_error)
    app.register_error_handler(OperationalError, handle_database_unavailable)
    app.register_error_handler(InterfaceError, handle_database_unavailable)
    app.register_error_handler(DatabaseError, handle_database_error)
    app.register_error_handler(ParseException, handle_malformed_body)
    app.register_error_handler(NoMoreData, handle_malformed_body)
    app.register_error_handler(Exception, handle_unexpected)
