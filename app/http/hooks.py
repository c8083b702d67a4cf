"""The request hooks, in the order a request meets them (see DESIGN.md)."""
import logging

from flask import current_app

from app.db import db
from app.db_faults import describe_failure
from app.errors import ApiError
from app.http import bodies, cors, jsonp, options, reduction, request_id
from app.http.current import current_request, view_declaration
from app.json_input import JsonInputError, loads, might_hold_bad_text, printable, unstorable_values

log = logging.getLogger("app.db")


def reject_nul_characters():
    """NUL is never meaningful in this API, and PostgreSQL cannot store it in text: refuse it
    at the door rather than let a driver error become a 500 deep inside a view (and SQLite store
    what PostgreSQL would refuse). Lone surrogates too: neither driver can encode them."""
    request = current_request()
    found = "\x00" in request.path or b"%00" in request.query_string
    if not found and (not bodies.has_body(request.environ) or bodies.streams_its_body(request)):
        return
    # Any body may be read as JSON whatever its Content-Type (app/http/bodies.py), so look at all;
    # read before `request.form`, which would otherwise consume it.
    data = request.get_data(cache=True)
    if request.mimetype == "application/x-www-form-urlencoded":
        found = found or any("\x00" in k + v for k, v in request.form.items(multi=True))
    elif not bodies.looks_like_json(data):  # then it may be read as form pairs (bodies.py)
        found = found or b"%00" in data or b"\x00" in data
    if not found and might_hold_bad_text(data):
        try:
            problems = unstorable_values(loads(data, current_app.config["JSON_MAX_DEPTH"]))
        except JsonInputError:  # not JSON: the escape is text the body parser may still read as such
            found = b"\\u0000" in data
        else:
            if problems:
                causes = [{"code": "invalid_characters", "field": printable(".".join(map(str, path))) or "json",
                           "message": message} for path, message in problems]
                fields = ", ".join(cause["field"] for cause in causes[:5])
                raise ApiError("invalid_characters", f"The body holds text that cannot be stored, "
                               f"in {fields}: {causes[0]['message']}", causes)
    if found:
        raise ApiError("invalid_characters", "The request contains a NUL character (\\u0000); remove it")


def open_connection():
    """The request's one routing decision: a view declared `reads="replica"` reads from a replica
    when one is ready (app/replicas), any other request from the primary, opened here."""
    if db.replicas is not None:
        request = current_request()
        if view_declaration(request.endpoint, request.method, "reads", "primary") == "replica":
            replica = db.replicas.choose()
            if replica is not None:
                db.route(replica)
                return
    try:
        db.primary.connect(reuse_if_open=True)
    except Exception as exc:  # any driver's "cannot connect"
        # Logged with the request id, so the 503 in the access log leads to its cause here.
        log.error("database unavailable: %s", describe_failure(exc))
        raise ApiError("service_unavailable", "The database is unavailable; retry later",
                       headers={"Retry-After": "5"}) from exc


def close_connection(exc):
    replica = db.routed
    if replica is not None:
        db.route(None)
        if not replica.is_closed():
            replica.close()
    if not db.primary.is_closed():
        db.primary.close()


def init_app(app):
    app.before_request(request_id.assign_request_id)
    app.before_request(cors.answer_preflight)
    app.before_request(jsonp.read_callback)
    app.before_request(options.answer_options)
    app.before_request(bodies.enforce_size_limit)
    app.before_request(reject_nul_characters)
    app.before_request(open_connection)
    # after_request functions run last-registered first: the id is echoed, then the body
    # reduced, then the CORS headers added, then everything (errors too) wrapped for JSONP.
    app.after_request(jsonp.wrap_jsonp)
    app.after_request(cors.add_cors_headers)
    app.after_request(reduction.reduce_fields)
    app.after_request(request_id.echo_request_id)
    app.teardown_request(close_connection)
