"""JSONP: with `callback`, answer 200 with /**/callback([status, headers, body]);"""
import json
import re

from flask import g

from app.errors import ApiError
from app.http.current import current_g, current_request

CALLBACK = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$")
CALLBACK_MAX_LENGTH = 64
# Headers that describe the transport, not the resource; they would be wrong after wrapping.
NOT_FORWARDED = {"content-length"}


def read_callback():
    """Checked before the view runs, so a request with a bad callback changes nothing."""
    g.jsonp_callback = None
    request = current_request()
    if not request.environ.get("QUERY_STRING"):  # no arguments to parse
        return
    callback = request.args.get("callback")
    if callback is None:
        return
    # fullmatch: `$` alone would let a trailing newline through ("cb\n").
    if len(callback) > CALLBACK_MAX_LENGTH or not CALLBACK.fullmatch(callback):
        raise ApiError("invalid_callback",
                       "callback must be a JavaScript identifier path (letters, digits, _, $ and "
                       f"dots) of at most {CALLBACK_MAX_LENGTH} characters")
    g.jsonp_callback = callback


def wrap_jsonp(response):
    callback = current_g().get("jsonp_callback")
    if not callback:
        return response
    headers = {}
    for name, value in response.headers.items():
        if name.lower() not in NOT_FORWARDED:
            headers.setdefault(name, []).append(value)
    body = response.get_json(silent=True) if response.is_json else None
    if body is None and not response.is_json:
        body = response.get_data(as_text=True)
    payload = json.dumps([response.status_code, headers, body], ensure_ascii=False,
                         separators=(",", ":"))
    # U+2028/2029 are valid in JSON but end a line in older JavaScript engines.
    payload = payload.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    request_id = response.headers.get("X-Request-Id")
    response.set_data(f"/**/{callback}({payload});")
    response.status_code = 200
    for name in list(response.headers.keys()):
        if name.lower() not in ("content-length",):
            del response.headers[name]
    response.headers["Content-Type"] = "text/javascript; charset=utf-8"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if request_id:
        response.headers["X-Request-Id"] = request_id
    return response
