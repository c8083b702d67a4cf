"""gzip of large responses, by Flask-Compress: only when the client accepts gzip (RFC 9110, 12.5.3)
and the body is at least COMPRESS_MIN_SIZE bytes (a small body gains nothing and costs CPU); and
the coding Flask-Compress appends to the ETag of what it compressed, read back in one place."""
from flask_compress import Compress

from app.http.current import current_request

compress = Compress()


def init_app(app):
    # gzip only: every HTTP client decodes it, and it is what integrators test for.
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    # Streamed answers (the docs' static files) stay as they are: Flask-Compress cannot gzip a stream.
    app.config.setdefault("COMPRESS_STREAMS", False)
    # Flask-Compress's own negotiation takes `gzip;q=0` (the client refusing gzip) for a choice of
    # gzip, so it runs behind the check below rather than as an after_request of its own.
    app.config["COMPRESS_REGISTER"] = False
    compress.init_app(app)
    app.after_request(after_request)


def after_request(response):
    request = current_request()
    # No header at all: Flask-Compress sends identity and adds Vary itself, and werkzeug's parse of
    # the header, which every answer would otherwise pay, is skipped.
    if "Accept-Encoding" not in request.headers or any(
            accepted(request.accept_encodings, coding) for coding in compress.enabled_algorithms):
        return compress.after_request(response)
    # Refused: not compressed for this request, but it would be for another Accept-Encoding: caches must know.
    response.vary.add("Accept-Encoding")
    return response


def accepted(accept_encodings, coding):
    """Whether the request's Accept-Encoding allows `coding`: the coding's own entry rules over
    `*`, and a q of 0 means "not acceptable". No header at all leaves the answer uncompressed."""
    qualities = {name.lower(): quality for name, quality in accept_encodings}
    quality = qualities.get(coding, qualities.get("*", 0))
    return quality > 0


def uncoded(tag):
    """The validator an ETag value (unquoted) names, whatever the coding of the answer that carried
    it. Flask-Compress makes the strong ETag of a compressed answer `<tag>:<coding>`, distinct from
    the identity answer's as RFC 9110 (8.8.3.3) asks of strong tags; both validate the same state."""
    base, colon, coding = tag.rpartition(":")
    if colon and coding in compress.enabled_algorithms:
        return base
    return tag
