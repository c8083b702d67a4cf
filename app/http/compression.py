"""gzip of large responses, by Flask-Compress: only when the client sends Accept-Encoding: gzip and
the body is at least COMPRESS_MIN_SIZE bytes (a small body gains nothing and costs CPU)."""
from flask_compress import Compress

compress = Compress()


def init_app(app):
    # gzip only: every HTTP client decodes it, and it is what integrators test for.
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    # Streamed answers (the docs' static files) stay as they are: Flask-Compress cannot gzip a stream.
    app.config.setdefault("COMPRESS_STREAMS", False)
    compress.init_app(app)
