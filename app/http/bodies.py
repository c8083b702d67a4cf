"""Request bodies as real clients send them: JSON whatever the declared Content-Type, form bodies
whatever their label, and the size limit kept when the body is chunked.

SDKs and scripts mislabel bodies (`curl -d` says form-urlencoded, some SDKs say `text/plain`, say
nothing, or label a form body `application/json`). A body that is ignored because of its label
fails later with a misleading message ("no products were given"), so the label is not trusted:
the bytes decide.
"""
import codecs
from urllib.parse import parse_qsl

from flask import current_app
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from app.errors import ApiError
from app.http.current import current_request
from app.json_input import JsonInputError, loads

# How much of an oversized chunked body is read and thrown away before answering 413: a client that
# is still sending when the answer comes would otherwise see a reset connection instead of the 413.
DRAIN_LIMIT_FACTOR = 4
DRAIN_CHUNK = 64 * 1024


class LenientBodyParser(FlaskParser):
    """webargs' Flask parser, reading bodies by their bytes rather than their Content-Type."""

    def _raw_load_json(self, req):
        data = req.get_data(cache=True)
        if not data.strip():
            return core.missing
        return read_json(data)

    def load_json_or_form(self, req, schema):
        """A JSON document if the body is one, else form-encoded pairs, whatever the label."""
        data = req.get_data(cache=True)
        if not data.strip():
            return core.missing
        if looks_like_json(data):  # its JSON errors are the answer, not a form parser's misreading
            return read_json(data)
        try:
            return loads(data, current_app.config["JSON_MAX_DEPTH"])
        except JsonInputError:
            pairs = parse_qsl(data.decode("utf-8", "replace"), keep_blank_values=True)
            return self._makeproxy(MultiDict(pairs), schema)


def looks_like_json(data):
    """An object or array, maybe after a byte order mark: no form body starts so."""
    return data.removeprefix(codecs.BOM_UTF8).lstrip()[:1] in (b"{", b"[")


def read_json(data):
    """The JSON document of a body, or 400 `invalid_json` saying why it is none: never json's
    RecursionError or ValueError, which would be a 500 (app/json_input.py). The cause repeats the code
    with `field: json`, as a validation error's causes name their field."""
    try:
        return loads(data, current_app.config["JSON_MAX_DEPTH"])
    except JsonInputError as exc:
        message = f"Invalid JSON body: {exc}"
        raise ApiError("invalid_json", message,
                       [{"code": "invalid_json", "message": message, "field": "json"}]) from None


def streams_its_body(request):
    """Whether the view reads the body itself, as a stream (J1: up to BULK_MAX_BYTES, never whole into
    memory); the hooks that read bodies leave it unread."""
    view = current_app.view_functions.get(request.endpoint)
    return request.method in getattr(getattr(view, "view_class", None), "STREAMED_BODY", ())


def has_body(environ):
    """Whether the request carries a body, told from its headers without touching the input: a
    request with neither a Content-Length above 0 nor a chunked Transfer-Encoding has none (RFC 9112,
    6.3), and gunicorn reads it as empty. The hooks that look at bodies skip the rest (most requests
    are GETs) instead of setting up werkzeug's stream to read nothing."""
    length = environ.get("CONTENT_LENGTH")
    return bool(length and length != "0") or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


def enforce_size_limit():
    """before_request: 413 for a chunked body (no Content-Length) above MAX_CONTENT_LENGTH.

    werkzeug checks Content-Length up front, but a chunked body it cuts at the limit and hands on the
    first part as if it were the whole body, which then fails as "Invalid JSON body"."""
    request = current_request()
    if not has_body(request.environ) or streams_its_body(request):
        return
    limit = request.max_content_length
    if limit is None or request.content_length is not None:
        return
    if "wsgi.input_terminated" not in request.environ:  # no server-framed body to read
        return
    data = request.get_data(cache=True)
    if len(data) < limit:
        return
    raw = request.environ["wsgi.input"]
    if not raw.read(1):
        return  # exactly the limit: allowed
    drained = 0
    while drained < DRAIN_LIMIT_FACTOR * limit:
        chunk = raw.read(DRAIN_CHUNK)
        if not chunk:
            break
        drained += len(chunk)
    raise RequestEntityTooLarge()
