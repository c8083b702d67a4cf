"""Requests gunicorn rejects before the app sees them answer the error object, not gunicorn's HTML page
(app/deploy/worker.py): 414 for a request line over `limit_request_line`, 431 for a header over
`limit_request_field_size` or more than `limit_request_fields` headers, 400 for a malformed request or
chunked body (gunicorn parses that as the app reads it), 417 for an `Expect` other than 100-continue, 501
for an unknown transfer coding."""
import pytest

from app.deploy.worker import CODE_BY_STATUS
from app.errors import STATUS
from tests.faults import wire
from tests.gunicorn_util import Gunicorn, empty_database

pytestmark = pytest.mark.slow

# Each rejection: (status, error code, words of the message that say what to send instead).
EXPECTED = {
    "request line too long": (wire.LONG_LINE, 414, "uri_too_long", ("4094 bytes", "shorten the URL")),
    "header too large": (wire.LARGE_HEADER, 431, "request_header_fields_too_large", ("8190 bytes", "shorter headers")),
    "too many headers": (wire.MANY_HEADERS, 431, "request_header_fields_too_large", ("at most 100 headers",)),
    "malformed request": (wire.MALFORMED, 400, "bad_request", ("send a valid HTTP/1.1 request line",)),
    "malformed chunked body": (wire.MALFORMED_CHUNKED, 400, "bad_request", ("valid chunked encoding",)),
    "unknown Expect": (wire.UNKNOWN_EXPECT, 417, "expectation_failed", ("only 'Expect: 100-continue'",)),
    "unknown Transfer-Encoding": (wire.UNKNOWN_CODING, 501, "not_implemented", ("Content-Length",)),
}


def test_every_code_the_worker_answers_is_an_error_code_with_its_status():
    assert {code: STATUS.get(code) for code in CODE_BY_STATUS.values()} == \
        {code: status for status, code in CODE_BY_STATUS.items()}


def test_requests_over_gunicorns_limits_answer_the_error_object(tmp_path):
    # No data is needed: gunicorn answers these before the app runs.
    with Gunicorn(empty_database(tmp_path), tmp_path, workers=1) as gunicorn:
        answers = {name: wire.exchange(gunicorn.port, data) for name, (data, *_) in EXPECTED.items()}
        still_serving = gunicorn.request("GET", "/health")[0]
    for name, (_, status, code, words) in EXPECTED.items():
        got_status, headers, body = answers[name]
        assert (got_status, headers["content-type"]) == (status, "application/json"), (name, body)
        assert body == {"message": body["message"], "error": code, "status": status, "cause": []}, name
        assert all(word in body["message"] for word in words), (name, body["message"])
    assert still_serving == 200
    # gunicorn still logs each of its rejections, as it did with its own page; the app logs the body
    # it could not read, without a traceback.
    assert gunicorn.errors().count("Invalid request from ip=127.0.0.1") == len(EXPECTED) - 1
    assert "malformed request body: Invalid chunk size" in gunicorn.errors()
    assert "Traceback" not in gunicorn.errors()
