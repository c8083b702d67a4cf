"""PostgreSQL connections: a pool per worker, nothing opened before gunicorn forks, a connection per
request returned to the pool at teardown, and 503 (then recovery) when the database goes away.

The outage is simulated with a TCP relay of our own between the app and PostgreSQL: closing the
relay cuts the app's connections; nothing on the server is stopped.
"""
import contextlib
import socket
import threading

import psycopg
import pytest
from playhouse.pool import PooledPostgresqlDatabase

from app.db import connection, db
from app.migrations import create_schema
from app.services.bundle import import_bundle
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.gunicorn_util import free_port, fresh_database
from tests.helpers import PG_ADMIN_URL, accept_until_closed, bearer, make_app


class Relay:
    """Forwards 127.0.0.1:<port> to PostgreSQL until cut()."""

    def __init__(self, target, port=None):
        self.target = target
        self.port = port or free_port()
        self.sockets = []
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=accept_until_closed, args=(self.listener, self._relay), daemon=True).start()

    def _relay(self, client):
        upstream = socket.create_connection(self.target)
        self.sockets += [client, upstream]
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                _close(sock)

    def cut(self):
        _close(self.listener)  # shutdown first: a bare close() leaves accept() serving
        for sock in self.sockets:
            _close(sock)


def _close(sock):
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def backends_connected(database_name):
    admin = psycopg.connect(PG_ADMIN_URL)
    try:
        with admin.cursor() as cur:
            cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (database_name,))
            return cur.fetchone()[0]
    finally:
        admin.close()


@pytest.fixture
def pg_database(tmp_path):
    """A fresh PostgreSQL database with the base bundle; yields its URL."""
    with fresh_database("postgresql", tmp_path) as url:
        app = make_app(url)
        with app.app_context(), connection():
            create_schema()
            import_bundle(base_bundle())
        db.obj.close_all()
        yield url
        if isinstance(db.obj, PooledPostgresqlDatabase):
            db.obj.close_all()


def test_building_the_app_opens_no_connection_before_the_fork(pg_database):
    name = pg_database.rsplit("/", 1)[1]
    before = backends_connected(name)
    app = make_app(pg_database, DB_MAX_CONNECTIONS=3)
    assert db.is_closed()
    assert backends_connected(name) == before == 0
    assert isinstance(db.obj, PooledPostgresqlDatabase) and db.obj._max_connections == 3
    assert app.config["DB_MAX_CONNECTIONS"] == 3


def test_each_request_borrows_one_pooled_connection_and_returns_it(pg_database):
    name = pg_database.rsplit("/", 1)[1]
    client = make_app(pg_database).test_client()
    for _ in range(5):
        assert client.get("/items/MLA100", headers=bearer(TOKENS[SELLER])).status_code == 200
        assert db.is_closed()  # returned to the pool at teardown
    assert len(db.obj._connections) == 1  # one idle connection, reused by every request
    assert backends_connected(name) == 1


@pytest.mark.parametrize("ping_after_idle_ms, pings", [(60_000, 0), (0, 4)])
def test_a_connection_returned_moments_ago_is_reused_without_a_ping(pg_database, monkeypatch,
                                                                       ping_after_idle_ms, pings):
    client = make_app(pg_database, DB_PING_AFTER_IDLE_MS=ping_after_idle_ms).test_client()
    adapter = db.obj._adapter
    seen = []
    ping = adapter.is_connection_closed
    monkeypatch.setattr(adapter, "is_connection_closed", lambda conn: seen.append(conn) or ping(conn))
    for _ in range(5):
        assert client.get("/items/MLA100", headers=bearer(TOKENS[SELLER])).status_code == 200
    assert len(db.obj._connections) == 1
    assert len(seen) == pings  # the first request opened the connection: nothing to check


@pytest.mark.parametrize("ping_after_idle_ms", [
    0,  # the pool pings the dead connection at checkout and discards it
    60_000,  # no ping: its first query fails, and the connection is discarded at check-in
])
def test_database_gone_mid_run_answers_503_then_recovers(pg_database, ping_after_idle_ms):
    host_url, name = pg_database.rsplit("/", 1)
    relay = Relay(("127.0.0.1", 5432))
    url = f"postgresql://postgres@127.0.0.1:{relay.port}/{name}"
    client = make_app(url, DB_PING_AFTER_IDLE_MS=ping_after_idle_ms).test_client()
    headers = bearer(TOKENS[SELLER])
    assert client.get("/health").status_code == 200
    assert client.get("/items/MLA100", headers=headers).status_code == 200

    relay.cut()  # the pooled connection dies, and new ones are refused
    for path in ("/items/MLA100", "/health", "/items/MLA100/compatibilities"):
        response = client.get(path, headers=headers)
        body = response.get_json()
        assert response.status_code == 503, (path, body)
        assert body == {"message": "The database is unavailable; retry later", "error": "service_unavailable",
                        "status": 503, "cause": []}
        assert response.headers["Retry-After"] == "5"

    relay = Relay(("127.0.0.1", 5432), relay.port)  # the database is back, at the same address
    try:
        assert client.get("/items/MLA100", headers=headers).status_code == 200
    finally:
        db.obj.close_all()
        relay.cut()
