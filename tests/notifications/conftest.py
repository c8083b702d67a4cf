"""Fixtures of the notification tests: the base bundle loaded with application 5501 subscribed, a
local receiver that records what it is posted, and a pump pass run as a worker would."""
import http.server
import json
import socket
import threading
import time

import pytest

from app.services.notifications import pump_once
from tests.bundles import SELLER, TOKENS
from tests.helpers import accept_until_closed, bearer, queued_app, serving

AUTH = bearer(TOKENS[SELLER])
TOPICS = ["items_compatibilities", "bulk_jobs"]


class Receiver:
    """An HTTP server on 127.0.0.1 recording each POST (headers, body); `status` and `delay_s` set
    its answers, `location` a redirect's target."""

    def __init__(self):
        self.received, self.status, self.delay_s, self.location = [], 200, 0.0, None
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                time.sleep(receiver.delay_s)
                self.send_response(receiver.status)
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def bodies(self):
        return [json.loads(body) for _, body in self.received]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class TricklingReceiver:
    """A server on 127.0.0.1 that takes a request and answers 200 one byte per `pause_s`: each
    receive of its client gets a byte well within any socket timeout."""

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Padding: " + b"." * 64 + b"\r\n\r\n"

    def __init__(self, pause_s=0.1):
        self.pause_s, self.requests = pause_s, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"
        self.thread = threading.Thread(target=accept_until_closed, args=(self.listener, self._answer), daemon=True)
        self.thread.start()

    def _answer(self, conn):
        with conn:
            self.requests += 1
            conn.recv(65536)
            try:
                for byte in self.ANSWER:
                    conn.sendall(bytes([byte]))
                    time.sleep(self.pause_s)
            except OSError:  # the client gave up
                pass

    def close(self):
        self.listener.close()


@pytest.fixture
def receiver():
    yield from serving(Receiver())


@pytest.fixture
def trickling_receiver():
    yield from serving(TricklingReceiver())


@pytest.fixture
def app(request, database_url):
    yield from queued_app(request, database_url, NOTIFY_ALLOW_PRIVATE="true", NOTIFY_RETRY_WINDOW_S="60")


@pytest.fixture
def subscribe(client):
    """Points application 5501 at `url` for these topics (N2)."""

    def run(url, topics=TOPICS):
        response = client.put("/applications/5501", json={"callback_url": url, "topics": topics}, headers=AUTH)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    return run


@pytest.fixture
def pump(app):
    """One worker pass: answers (events taken, deliveries attempted)."""

    def run():
        with app.app_context():
            return pump_once(app.config)

    return run


def add_vehicle(client, item_id="MLA100", product_id="MLA90001", headers=AUTH):
    response = client.post(f"/items/{item_id}/compatibilities", json={"products": [
        {"id": product_id, "creation_source": "DEFAULT"}]},
                           headers=headers)
    assert response.status_code in (200, 201), response.get_json()
    return response


def feed_page(client, query, count=1):
    """N4's page at `query` for the seller, once it holds `count` changes (0: at once), within a few
    seconds: on PostgreSQL a change shows once the older writing transactions of the server have
    ended, another test database's too (tests/notifications/test_feed.py)."""
    deadline = time.monotonic() + 30
    while True:
        response = client.get("/users/1001/compatibilities/changes", query_string=query, headers=AUTH)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        if len(body["results"]) >= count or time.monotonic() > deadline:
            return body
        time.sleep(0.05)
