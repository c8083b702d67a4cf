"""A request id on every request: taken from X-Request-Id when sane, echoed, and put in logs."""
import logging
import re
import uuid

from flask import g, has_request_context

from app.http.current import current_g, current_request

SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


def assign_request_id():
    incoming = current_request().environ.get("HTTP_X_REQUEST_ID", "")  # the header, without building the headers view
    g.request_id = incoming if SAFE_REQUEST_ID.match(incoming) else uuid.uuid4().hex


def echo_request_id(response):
    response.headers["X-Request-Id"] = current_g().get("request_id", "-")
    return response


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every log record, '-' outside a request."""

    def filter(self, record):
        record.request_id = g.get("request_id", "-") if has_request_context() else "-"
        return True
