"""The production app plus two routes that fail with the request's URL in their error, for
tests/faults/test_secrets_in_logs.py: `/faults/app-error` logs a warning quoting the URL and then
raises (the app logs the traceback), `/faults/server-error` fails outside the app (gunicorn logs it)."""
from flask import current_app, request

from app import create_app

flask_app = create_app()


@flask_app.route("/faults/app-error")
def app_error():
    current_app.logger.warning("suspicious request %s", request.full_path)
    raise RuntimeError(f"failed on {request.url}")


def app(environ, start_response):
    if environ["PATH_INFO"] == "/faults/server-error":
        raise RuntimeError("failed on " + environ["RAW_URI"])
    return flask_app(environ, start_response)
