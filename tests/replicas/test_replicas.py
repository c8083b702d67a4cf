"""Read replicas on a real hot standby: a PostgreSQL server of the module's own (the primary) and a
standby made from it with `pg_basebackup -R`, each on its own port, so the machine's shared server is
untouched. Which server ran a request's statements is read from each one's pg_stat_statements.

The tests run in order on one primary and one standby (per xdist worker), each on its own data; the last
stops the primary."""
import logging
import os
import re
import threading
import time

import psycopg
import pytest

from app import replicas
from app.db import connection, db
from app.migrations import create_schema
from app.replicas import PROBE_INTERVAL_S
from app.services.bundle import import_bundle
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import BACKENDS, bearer, make_app
from tests.pg_server import own_postgres, own_standby

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    "postgresql" not in BACKENDS and os.environ.get("REQUIRE_POSTGRES") != "1",
    reason="read replicas are PostgreSQL hot standbys")]

STATEMENTS = ["shared_preload_libraries=pg_stat_statements"]
MAX_LAG_MS = 300
SELLER_HEADERS = bearer(TOKENS[SELLER])
FITS_GOL = {"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}
PUBLIC_READS = [
    ("GET", "/sites/MLA/search?compatible_with=MLA90013", None),
    ("GET", "/sites/MLA/search?compatibility_filter=BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010", None),
    ("POST", "/items/MLA101/check_compatibility", {"product_id": "MLA90013"}),
    ("GET", "/sites", None), ("GET", "/currencies", None),
    ("GET", "/catalog/dumps/domains/MLA/compatibilities", None),
    ("GET", "/sites/MLA/domain_discovery/search?q=pastillas", None),
]
# Where a statement comes from none of the requests: the lag probe, the pool's ping, the count itself.
COUNTED = ("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database "
           "WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%' "
           "AND query NOT LIKE '%pg_is_in_recovery%' AND query <> 'SELECT $1'")


def statements(url):
    """How many statements the app's requests have run on the server at `url`."""
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        return conn.execute(COUNTED).fetchone()[0]


def standby_sql(standby, sql):
    with psycopg.connect(standby["url"], autocommit=True, connect_timeout=3) as conn:
        return conn.execute(sql).fetchone()


def wait_until_replayed(servers, timeout_s=10):
    """Until the standby has replayed all the primary has written so far. Comparing what the standby
    received with what it replayed would not do: a commit it has not received yet passes that."""
    with psycopg.connect(servers["primary"]["url"], autocommit=True, connect_timeout=3) as conn:
        written = conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()[0]
    deadline = time.monotonic() + timeout_s
    while not standby_sql(servers["standby"], f"SELECT pg_last_wal_replay_lsn() >= '{written}'::pg_lsn")[0]:
        assert time.monotonic() < deadline, "the standby did not catch up"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def servers():
    """{"primary": {server, url}, "standby": {server, url}}: the database `replicas` loaded with the base
    bundle on the primary, then copied to the standby."""
    started = time.monotonic()
    with own_postgres(STATEMENTS) as primary:
        url = primary.database("replicas")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION pg_stat_statements")
        app = make_app(url)
        with app.app_context(), connection():
            create_schema()
            import_bundle(base_bundle())
        db.primary.close_all()
        with own_standby(primary, STATEMENTS) as standby:
            standby_url = standby.url.rsplit("/", 1)[0] + "/replicas"
            servers = {"primary": {"server": primary, "url": url},
                       "standby": {"server": standby, "url": standby_url}, "started_s": time.monotonic() - started}
            wait_until_replayed(servers)
            yield servers
            db.replicas and db.replicas.close()
            db.primary.close_all()


@pytest.fixture
def app(servers):
    app = make_app(servers["primary"]["url"], DATABASE_REPLICA_URLS=servers["standby"]["url"],
                   REPLICA_MAX_LAG_MS=str(MAX_LAG_MS), RATELIMIT_ENABLED=False, DB_CONNECT_TIMEOUT_S=2)
    yield app
    app.extensions["bulk_queue"].close()


@pytest.fixture
def warnings():
    """The warnings app.db logs during the test (the app's loggers do not propagate to pytest's)."""
    seen = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: seen.append(record.getMessage())
    logger = logging.getLogger("app.db")
    logger.addHandler(handler)
    yield seen
    logger.removeHandler(handler)


def call(client, method, path, body=None, headers=None):
    return client.open(path, method=method, json=body, headers=headers or {})


def fits(client, item_id, product_id):
    response = client.post(f"/items/{item_id}/check_compatibility", json={"product_id": product_id})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["compatibility_status"]


def test_public_reads_are_served_by_the_standby_and_the_primary_runs_none(app, servers):
    client = app.test_client()
    on_primary, on_standby = statements(servers["primary"]["url"]), statements(servers["standby"]["url"])
    for method, path, body in PUBLIC_READS:
        response = call(client, method, path, body)
        assert response.status_code == 200, (path, response.get_json())
    assert statements(servers["primary"]["url"]) == on_primary
    assert statements(servers["standby"]["url"]) - on_standby >= len(PUBLIC_READS)
    assert fits(client, "MLA101", "MLA90013") == "NOT_COMPATIBLE"


def test_a_finder_read_checks_its_token_on_the_primary_and_reads_the_standby(app, servers):
    client = app.test_client()
    on_primary, on_standby = statements(servers["primary"]["url"]), statements(servers["standby"]["url"])
    assert client.get("/products/MLA90001", headers=SELLER_HEADERS).status_code == 200
    assert statements(servers["primary"]["url"]) - on_primary == 1  # the token
    assert statements(servers["standby"]["url"]) - on_standby >= 1
    assert client.get("/products/MLA90001", headers=bearer("revoked")).status_code == 401


def test_a_lagging_standby_is_skipped_and_a_seller_reads_its_own_write(app, servers, warnings):
    client = app.test_client()
    standby = servers["standby"]
    written = client.post("/items/MLA102/compatibilities", json=FITS_GOL, headers=SELLER_HEADERS)
    assert written.status_code == 200, written.get_json()
    wait_until_replayed(servers)  # a transaction replayed: its time is the one the lag is measured from
    assert call(client, *PUBLIC_READS[2]).status_code == 200
    standby_sql(standby, "SELECT pg_wal_replay_pause()")
    try:
        on_standby = statements(standby["url"])
        written = client.post("/items/MLA103/compatibilities", json=FITS_GOL, headers=SELLER_HEADERS)
        assert written.status_code == 200, written.get_json()
        listed = client.get("/items/MLA103/compatibilities", headers=SELLER_HEADERS).get_json()
        assert "MLA90001" in {entry["catalog_product_id"] for entry in listed["products"]}, listed
        assert statements(standby["url"]) == on_standby  # the seller's write and read: the primary's
        time.sleep(PROBE_INTERVAL_S + MAX_LAG_MS / 1000)
        assert fits(client, "MLA103", "MLA90001") == "COMPATIBLE"
        assert statements(standby["url"]) == on_standby  # skipped: it has not replayed the write
        assert any(re.search(r"lags \d+ ms behind the primary \(REPLICA_MAX_LAG_MS=300\)", line)
                   for line in warnings), warnings
    finally:
        standby_sql(standby, "SELECT pg_wal_replay_resume()")
    wait_until_replayed(servers)
    time.sleep(PROBE_INTERVAL_S)
    on_standby = statements(standby["url"])
    assert fits(client, "MLA103", "MLA90001") == "COMPATIBLE"
    assert statements(standby["url"]) > on_standby  # caught up: in use again


def test_a_stopped_standby_falls_back_to_the_primary_with_no_failed_request(app, servers, warnings, monkeypatch):
    monkeypatch.setattr(replicas, "RETRY_AFTER_FAILURE_S", 0.5)
    client = app.test_client()
    standby = servers["standby"]["server"]
    assert call(client, *PUBLIC_READS[0]).status_code == 200
    stopper = threading.Timer(0.3, standby.stop)
    statuses, started = [], time.monotonic()
    stopper.start()
    try:
        while time.monotonic() - started < 2.5:
            for method, path, body in PUBLIC_READS[:3]:
                statuses.append((path, call(client, method, path, body).status_code))
        stopper.join()
        servers["fallback_requests"] = len(statuses)
        on_primary = statements(servers["primary"]["url"])
        assert call(client, *PUBLIC_READS[2]).status_code == 200
        assert statements(servers["primary"]["url"]) > on_primary
    finally:
        stopper.join()
        standby.start()
    assert [s for s in statuses if s[1] != 200] == [] and len(statuses) > 6, statuses
    assert any("read replica" in line and "skipped" in line for line in warnings), warnings
    assert len(warnings) == 1, warnings  # once a minute

    # Started again, on an idle primary: it has replayed all it has, so it serves again.
    time.sleep(0.5)
    on_standby = statements(servers["standby"]["url"])
    assert call(client, *PUBLIC_READS[2]).status_code == 200
    assert statements(servers["standby"]["url"]) > on_standby


def test_with_the_primary_stopped_buyers_read_from_the_standby_and_writes_answer_503(app, servers):
    client = app.test_client()
    fits_hilux = {"products": [{"id": "MLA90013", "creation_source": "DEFAULT"}]}
    assert call(client, "POST", "/items/MLA100/compatibilities", fits_hilux, SELLER_HEADERS).status_code == 200
    wait_until_replayed(servers)
    servers["primary"]["server"].stop()
    for method, path, body in PUBLIC_READS:
        response = call(client, method, path, body)
        assert response.status_code == 200, (path, response.get_json())
    assert fits(client, "MLA100", "MLA90013") == "COMPATIBLE"
    for method, path, body in [("POST", "/items/MLA100/compatibilities", FITS_GOL),
                               ("GET", "/items/MLA100/compatibilities", None), ("GET", "/products/MLA90001", None)]:
        response = call(client, method, path, body, SELLER_HEADERS)
        assert response.status_code == 503, (path, response.get_json())
        assert response.get_json()["error"] == "service_unavailable"
