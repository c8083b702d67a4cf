"""The request hooks, in the order a request meets them (see DESIGN.md)."""
from app.db import db
from app.http import jsonp, options, reduction, request_id
from app.services.errors import ApiError


def open_connection():
    try:
        db.connect(reuse_if_open=True)
    except Exception as exc:  # any driver's "cannot connect"
        raise ApiError(503, "service_unavailable", "The database is unavailable; retry later",
                       headers={"Retry-After": "5"}) from exc


def close_connection(exc):
    if not db.is_closed():
        db.close()


def init_app(app):
    app.before_request(request_id.assign_request_id)
    app.before_request(jsonp.read_callback)
    app.before_request(options.answer_options)
    app.before_request(open_connection)
    # after_request functions run last-registered first: the id is echoed, then the body
    # reduced, then everything (errors too) wrapped for JSONP.
    app.after_request(jsonp.wrap_jsonp)
    app.after_request(reduction.reduce_fields)
    app.after_request(request_id.echo_request_id)
    app.teardown_request(close_connection)
