"""The stack's own ceiling: a bare WSGI app and a bare Flask view answering a small JSON body,
served by the same gunicorn settings (`--baseline` in tests.benchmarks.run)."""
import json

from flask import Flask

BODY = json.dumps({"status": "ok", "database": "ok"}).encode()


def wsgi_app(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))])
    return [BODY]


flask_app = Flask(__name__)


@flask_app.get("/health")
def health():
    return {"status": "ok", "database": "ok"}
