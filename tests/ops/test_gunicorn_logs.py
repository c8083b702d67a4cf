"""The production gunicorn configuration ties logs together with the request id.

The id a response carries in `X-Request-Id` is the `rid=` of its access-log line and the
`[id]` of the app's error-log lines for that request.
"""
import re

import pytest

from tests.bundles import base_bundle
from tests.gunicorn_util import Gunicorn, free_port, fresh_database, load_database

pytestmark = pytest.mark.slow


def access_line(gunicorn, request_id):
    lines = [line for line in gunicorn.access_log().splitlines() if f"rid={request_id}" in line]
    assert len(lines) == 1, gunicorn.access_log()[-2000:]
    return lines[0]


def test_access_log_line_carries_the_request_id_of_the_response(tmp_path):
    with fresh_database("sqlite", tmp_path) as url:
        load_database(url, base_bundle(), tmp_path)
        with Gunicorn(url, tmp_path, workers=2) as gunicorn:
            status, headers, body = gunicorn.request("GET", "/health")
            generated = headers["x-request-id"]
            status_given, headers_given, _ = gunicorn.request(
                "GET", "/currencies/ARS", headers={"X-Request-Id": "client-chosen.id_42"})
            _, headers_bad, _ = gunicorn.request("GET", "/health", headers={"X-Request-Id": "bad id\";"})
    assert (status, body) == (200, {"status": "ok", "database": "ok"})
    assert re.fullmatch(r"[0-9a-f]{32}", generated)
    assert '"GET /health HTTP/1.1" 200' in access_line(gunicorn, generated)
    assert headers_given["x-request-id"] == "client-chosen.id_42"
    assert '"GET /currencies/ARS HTTP/1.1" 200' in access_line(gunicorn, "client-chosen.id_42")
    # An unsafe incoming id is replaced, never written into the logs.
    assert re.fullmatch(r"[0-9a-f]{32}", headers_bad["x-request-id"])
    assert 'bad id' not in gunicorn.access_log()


def test_database_down_answers_503_and_the_error_log_names_the_same_request_id(tmp_path):
    # A PostgreSQL URL on a port where nothing listens: the database is "down", nothing is stopped.
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere"
    with Gunicorn(url, tmp_path, workers=2) as gunicorn:
        status, headers, body = gunicorn.request("GET", "/health", headers={"X-Request-Id": "down-1"})
        status_items, _, body_items = gunicorn.request(
            "GET", "/items/MLA100", headers={"X-Request-Id": "down-2", "Authorization": "Bearer x"})
    assert status == 503 and headers["retry-after"] == "5"
    assert body == {"message": "The database is unavailable; retry later", "error": "service_unavailable",
                    "status": 503, "cause": []}
    assert (status_items, body_items["error"]) == (503, "service_unavailable")
    assert '"GET /health HTTP/1.1" 503' in access_line(gunicorn, "down-1")
    errors = gunicorn.errors()
    assert re.search(r"ERROR \[down-1\] app\.db: database unavailable: .+", errors), errors[-2000:]
    assert re.search(r"ERROR \[down-2\] app\.db: database unavailable", errors), errors[-2000:]
    assert "Traceback" not in errors
