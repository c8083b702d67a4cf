"""Issue 16, secrets in logs: `access_token`, `client_secret`, `refresh_token`, `code` and `password`
in a query string (or a Referer), and the Authorization header, never reach gunicorn's access log, its
error log or the app's error log, tracebacks included; the lines keep everything else
(`client_secret=[REDACTED]`), so they still say who called what.

A real gunicorn with the production configuration, its access format extended (GUNICORN_CMD_ARGS)
with the atoms an operator might add: request headers, the environ, the query, the Referer."""
import contextlib
import re
import socket

import pytest

from app.gunicorn_conf import access_log_format
from app.logs import redact_text
from tests.bundles import base_bundle
from tests.gunicorn_util import Gunicorn, fresh_database, load_database
from tests.helpers import BACKENDS, bearer

EXTRA_ATOMS = " auth=%({authorization}i)s env=%({http_authorization}e)s q=%(q)s raw=%({raw_uri}e)s ref=%(f)s"
CLIENT = "client_id=5501&client_secret=s3cret"


def raw_request(gunicorn, line):
    """Sends one request line gunicorn cannot parse; it answers 400 and logs the line."""
    with socket.create_connection(("127.0.0.1", gunicorn.port), timeout=10) as sock:
        sock.sendall(line + b"\r\nHost: x\r\n\r\n")
        return sock.recv(200)


def exercise(gunicorn):
    """Every way a secret reaches a URL or a header; the secrets sent, and the statuses."""
    issued = gunicorn.request("POST", f"/oauth/token?grant_type=client_credentials&{CLIENT}",
                              headers={"X-Request-Id": "rid-issue"})
    tokens = issued[2]
    refreshed = gunicorn.request("POST", "/oauth/token?grant_type=refresh_token&refresh_token="
                                 f"{tokens['refresh_token']}&{CLIENT}", headers={"X-Request-Id": "rid-refresh"})
    statuses = {
        "issue": issued[0], "refresh": refreshed[0],
        "code": gunicorn.request("POST", f"/oauth/token?grant_type=authorization_code&code=LEAK-code&{CLIENT}")[0],
        "encoded": gunicorn.request("POST", "/oauth/token?grant_type=client_credentials&client_id=5501"
                                            "&client%5Fsecret=LEAK-encoded")[0],
        "query_token": gunicorn.request("GET", f"/users/me?access_token={refreshed[2]['access_token']}")[0],
        "header_token": gunicorn.request("GET", "/users/me", headers={
            **bearer(refreshed[2]["access_token"]), "Referer": "https://seller.example/cb?code=LEAK-referer"})[0],
        "password": gunicorn.request("GET", "/health?password=LEAK-password")[0],
        "app_error": gunicorn.request("GET", "/faults/app-error?client_secret=LEAK-app&code=LEAK-app-code",
                                      headers={"X-Request-Id": "rid-app"})[0],
        "server_error": gunicorn.request("GET", "/faults/server-error?refresh_token=LEAK-server")[0],
        "bad_line": raw_request(gunicorn, b"GET /oauth/token?client_secret=LEAK-bad-line&x=\xc3\xa9 HTTP/1.1")[:12],
    }
    secrets = ["s3cret", "LEAK-", tokens["access_token"], tokens["refresh_token"],
               refreshed[2]["access_token"], refreshed[2]["refresh_token"]]
    return statuses, secrets


@contextlib.contextmanager
def leaky_gunicorn(backend, directory, workers):
    """gunicorn serving tests/faults/leaky_wsgi.py, its access format extended with EXTRA_ATOMS."""
    with fresh_database(backend, directory) as url:
        load_database(url, base_bundle(), directory)
        cmd_args = f"--access-logformat '{access_log_format}{EXTRA_ATOMS}'"
        with Gunicorn(url, directory, workers=workers, wsgi="tests.faults.leaky_wsgi:app",
                      GUNICORN_CMD_ARGS=cmd_args) as gunicorn:
            yield gunicorn


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_secrets_in_urls_and_headers_are_redacted_in_access_and_error_logs(tmp_path, backend):
    with leaky_gunicorn(backend, tmp_path, workers=2) as gunicorn:
        statuses, secrets = exercise(gunicorn)
    access, errors = gunicorn.access_log(), gunicorn.errors()
    assert statuses == {"issue": 200, "refresh": 200, "code": 400, "encoded": 401, "query_token": 401,
                        "header_token": 200, "password": 200, "app_error": 500, "server_error": 500,
                        "bad_line": b"HTTP/1.1 400"}, errors[-3000:]
    for secret in secrets:
        assert secret not in access, (secret, access)
        assert secret not in errors, (secret, errors)

    # The lines still say who called what, with the secret's place marked.
    r = "[REDACTED]"
    assert f'"POST /oauth/token?grant_type=client_credentials&client_id=5501&client_secret={r} HTTP/1.1" 200' in access
    assert f"refresh_token={r}&client_id=5501&client_secret={r} HTTP/1.1\" 200" in access
    assert f"grant_type=authorization_code&code={r}&client_id=5501" in access
    assert f"client%5Fsecret={r}" in access
    assert f'"GET /users/me?access_token={r} HTTP/1.1" 401' in access
    assert f'"GET /health?password={r} HTTP/1.1" 200' in access
    assert f"/faults/app-error?client_secret={r}&code={r} HTTP/1.1\" 500" in access
    header_line = next(line for line in access.splitlines() if '"GET /users/me HTTP/1.1" 200' in line)
    assert f"auth={r} env={r}" in header_line and f"ref=https://seller.example/cb?code={r}" in header_line
    assert f"q=grant_type=client_credentials&client_id=5501&client_secret={r} raw=/oauth/token?" in access

    # The app's own lines (a warning and a traceback quoting the URL), under their request id...
    assert f"WARNING [rid-app] app: suspicious request /faults/app-error?client_secret={r}&code={r}" in errors
    assert re.search(r"ERROR \[rid-app\] app\.errors: unhandled error", errors), errors[-3000:]
    assert re.search(rf"RuntimeError: failed on http://127\.0\.0\.1:\d+/faults/app-error\?client_secret="
                     rf"{re.escape(r)}&code={re.escape(r)}", errors), errors[-3000:]
    # ...and gunicorn's: a request that failed outside the app, and a request line it refused.
    assert f"Error handling request GET /faults/server-error?refresh_token={r}" in errors
    assert f"RuntimeError: failed on /faults/server-error?refresh_token={r}" in errors
    assert f"Invalid HTTP request line: 'GET /oauth/token?client_secret={r}&x=" in errors


# Every spelling of a secret's name a client may send (issue 30): the app may not read it as the secret,
# but its value is one all the same.
SPELLINGS = ["client_secret%00", "CLIENT_SECRET", "Client%5fSecret", "client%5FSECRET", "%63lient_secret",
             "client_secret%2500", "%00client_secret", "client_secret%1F", "client_secret%7f", "+client_secret",
             "client_secret+", "client_secret%20", "Refresh_Token%09", "PASSWORD", "access%5ftoken", "Code%0D%0A",
             "%EF%BD%83ode"]  # the last: a fullwidth c, which Unicode's compatibility form folds to c


@pytest.mark.parametrize("name", SPELLINGS)
def test_every_spelling_of_a_secrets_name_is_redacted(name):
    assert redact_text(f"POST /oauth/token?client_id=5501&{name}=LEAK-x&y=1 HTTP/1.1") == \
        f"POST /oauth/token?client_id=5501&{name}=[REDACTED]&y=1 HTTP/1.1"


@pytest.mark.parametrize("text, redacted", [
    ("client_secret\x00=LEAK", "client_secret\x00=[REDACTED]"),  # decoded: NUL and other control bytes
    ("client_secret\x1f=LEAK\x1fmore", "client_secret\x1f=[REDACTED]"),
    ("{'client_secret\\x00': 'LEAK', 'grant_type': 'x'}", "{'client_secret\\x00': '[REDACTED]', 'grant_type': 'x'}"),
    ('{"Client_Secret\\u0000": "LEAK"}', '{"Client_Secret\\u0000": "[REDACTED]"}'),
    # A URL quoted as another pair's value still has its secret found.
    ("redirect=https://x.example/cb?code=LEAK&state=1", "redirect=https://x.example/cb?code=[REDACTED]&state=1"),
])
def test_secret_names_in_decoded_text_and_reprs_are_redacted(text, redacted):
    assert redact_text(text) == redacted


@pytest.mark.parametrize("text", ["error_code=E1 zip_code=1414 country_code=AR", "tokens=3 codes=x",
                                  "grant_type=client_credentials&client_id=5501", "'error': 'invalid_client'"])
def test_names_that_only_contain_a_secrets_name_are_kept(text):
    assert redact_text(text) == text


def raw_request_line(gunicorn, target):
    """A request whose target holds raw bytes no client library sends (NUL, control characters)."""
    return raw_request(gunicorn, b"POST " + target + b" HTTP/1.1")


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS[:1])
def test_every_spelling_of_a_secrets_name_is_redacted_in_gunicorns_logs(tmp_path, backend):
    with leaky_gunicorn(backend, tmp_path, workers=1) as gunicorn:
        statuses = [gunicorn.request("POST", f"/oauth/token?grant_type=client_credentials&client_id=5501"
                                             f"&{name}=LEAK-{n}")[0] for n, name in enumerate(SPELLINGS)]
        app_error = "/faults/app-error?Client%5fSecret%1F=LEAK-app&CODE%7F=LEAK-app"
        statuses.append(gunicorn.request("GET", app_error)[0])
        refused = [raw_request_line(gunicorn, b"/oauth/token?client_secret\x00=LEAK-raw-nul"),
                   raw_request_line(gunicorn, b"/oauth/token?Client_Secret\x01=LEAK-raw-control")]
    access, errors = gunicorn.access_log(), gunicorn.errors()
    assert set(statuses[:-1]) <= {400, 401} and statuses[-1] == 500, errors[-3000:]
    assert all(answer.startswith(b"HTTP/1.1 400") for answer in refused), refused
    assert "LEAK-" not in access, access
    assert "LEAK-" not in errors, errors[-3000:]
    assert "suspicious request /faults/app-error?Client%5fSecret%1F=[REDACTED]&CODE%7F=[REDACTED]" in errors
    for name in SPELLINGS:
        assert f"&{name}=[REDACTED] HTTP/1.1" in access, name
        assert f"&{name}=[REDACTED] raw=" in access, name  # the q atom
