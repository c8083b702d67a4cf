"""gzip of large responses, by Flask-Compress: only when the client sends Accept-Encoding: gzip and
the body is at least COMPRESS_MIN_SIZE bytes (a small body gains nothing and costs CPU); and the
coding Flask-Compress appends to the ETag of what it compressed, read back in one place."""
from flask_compress import Compress

compress = Compress()


def init_app(app):
    # gzip only: every HTTP client decodes it, and it is what integrators test for.
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    # Streamed answers (the docs' static files) stay as they are: Flask-Compress cannot gzip a stream.
    app.config.setdefault("COMPRESS_STREAMS", False)
    compress.init_app(app)


def uncoded(tag):
    """The validator an ETag value (unquoted) names, whatever the coding of the answer that carried
    it. Flask-Compress makes the strong ETag of a compressed answer `<tag>:<coding>`, distinct from
    the identity answer's as RFC 9110 (8.8.3.3) asks of strong tags; both validate the same state."""
    base, colon, coding = tag.rpartition(":")
    if colon and coding in compress.enabled_algorithms:
        return base
    return tag
