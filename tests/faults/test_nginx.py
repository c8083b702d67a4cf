"""nginx in front of gunicorn (app/deploy/nginx.conf, run as shipped): what either of them refuses
answers the error object, the app sees the client's address and not one the client claims, and a
gunicorn that is down answers 503 `service_unavailable`."""
import pytest

from app.deploy import nginx as nginx_conf
from tests.faults.proxy import Nginx
from tests.faults.wire import LARGE_HEADER, LONG_LINE, MALFORMED, MANY_HEADERS, exchange
from tests.gunicorn_util import Gunicorn, empty_database, free_port

pytestmark = pytest.mark.slow

# Over nginx's 8 kB buffers: nginx refuses these itself, gunicorn never sees them.
NGINX_LONG_LINE = b"GET /health?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
OVER_1_MIB = b"POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n"
OVER_1_MIB_CHUNKED = (b"POST /oauth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                      + b"100000\r\n" + b"a" * 0x100000 + b"\r\n10\r\n" + b"a" * 16 + b"\r\n0\r\n\r\n")

# (request, status, code, words of the message); which of nginx and gunicorn refuses is in the comment.
EXPECTED = {
    "request line over gunicorn's limit": (LONG_LINE, 414, "uri_too_long", "4094 bytes"),  # gunicorn
    "request line over nginx's buffer": (NGINX_LONG_LINE, 414, "uri_too_long", "8192 bytes"),  # nginx
    "header over nginx's buffer": (LARGE_HEADER, 431, "request_header_fields_too_large", "8192 bytes"),  # nginx
    "too many headers": (MANY_HEADERS, 431, "request_header_fields_too_large", "100 headers"),  # gunicorn
    "malformed request": (MALFORMED, 400, "bad_request", "valid HTTP/1.1 request line"),  # nginx
    "body over 1 MiB": (OVER_1_MIB, 413, "request_entity_too_large", "1 MiB"),  # nginx
    "chunked body over 1 MiB": (OVER_1_MIB_CHUNKED, 413, "request_entity_too_large", "1 MiB"),  # nginx
}


def test_requests_refused_by_nginx_or_gunicorn_answer_the_error_object(tmp_path):
    with Gunicorn(empty_database(tmp_path), tmp_path, workers=1) as gunicorn, \
            Nginx(tmp_path, f"127.0.0.1:{gunicorn.port}") as nginx:
        answers = {name: exchange(nginx.port, data) for name, (data, *_) in EXPECTED.items()}
    for name, (_, status, code, words) in EXPECTED.items():
        got_status, headers, body = answers[name]
        assert (got_status, headers["content-type"]) == (status, "application/json"), (name, body)
        assert body == {"message": body["message"], "error": code, "status": status, "cause": []}, name
        assert words in body["message"], (name, body["message"])
        assert "server" not in headers or headers["server"] == "nginx", name  # no version shown


def test_the_app_sees_the_address_nginx_saw_not_the_one_the_client_claims(tmp_path):
    # The client connects from 127.0.0.2 and claims 203.0.113.9; nginx connects to gunicorn from
    # 127.0.0.1. gunicorn's access log shows the address the app (and its rate limits) used.
    request = (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n"
               b"X-Request-Id: forwarded-1\r\nConnection: close\r\n\r\n")
    with Gunicorn(empty_database(tmp_path), tmp_path, workers=1, FORWARDED_PROXIES=1) as gunicorn, \
            Nginx(tmp_path, f"127.0.0.1:{gunicorn.port}") as nginx:
        status, _, _ = exchange(nginx.port, request, source="127.0.0.2")
    assert status == 200
    line = next(line for line in gunicorn.access_log().splitlines() if "rid=forwarded-1" in line)
    assert line.startswith("127.0.0.2 "), line


@pytest.mark.parametrize("upstream", ["tcp", "unix"])
def test_gunicorn_down_answers_503_service_unavailable(tmp_path, upstream):
    address = f"127.0.0.1:{free_port()}" if upstream == "tcp" else f"unix:{tmp_path}/gunicorn.sock"
    with Nginx(tmp_path, address) as nginx:
        status, headers, body = exchange(nginx.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert (status, headers["content-type"], headers["retry-after"]) == (503, "application/json", "5")
    assert body == {"message": "The service is unavailable; retry later", "error": "service_unavailable",
                    "status": 503, "cause": []}


def test_the_site_file_is_rendered_from_the_environment_gunicorn_reads(monkeypatch, capsys):
    monkeypatch.setenv("BIND", "unix:/run/listings/gunicorn.sock")
    monkeypatch.setenv("MAX_CONTENT_LENGTH", str(2 * 1048576))
    nginx_conf.main(["--listen", "8080"])
    site = capsys.readouterr().out
    for line in ("server unix:/run/listings/gunicorn.sock;", "listen 8080;", "client_max_body_size 2097152;"):
        assert f"    {line}\n" in site, line
    assert "Request body too large: the limit is 2 MiB" in site and "{{" not in site
