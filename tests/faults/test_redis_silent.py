"""The rate-limit Redis accepts connections but never answers (issue 16): each limited request used
to wait 5 s on it, and limits turned off without a word. Now a request gives up on the store after
RATELIMIT_STORAGE_TIMEOUT_MS (no retry), RATELIMIT_FAIL_MODE decides (open: served unlimited;
closed: 503 with Retry-After) and a warning is logged, at most once a minute per worker.

The silent Redis is a TCP server of the test's own that accepts and never replies.
"""
import logging
import socket
import threading
import time

import pytest
from limits.errors import StorageError

from app.db import connection, db
from app.http.ratelimit import limiter
from app.migrations import create_schema
from app.services.bundle import import_bundle
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import assert_error, bearer, loaded_app, make_app, serving

COUNT_PATH = "/catalog_compatibilities/products_search/count_family_products"
FORD = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Ford"}]}
HEADERS = bearer(TOKENS[SELLER])
# What the issue asks of every request while the store is silent.
BOUND_S = 1.0


class SilentRedis:
    """Accepts every connection, reads nothing, answers nothing."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}"
        self.accepted = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.accepted.append(self.listener.accept()[0])
            except OSError:
                return

    def close(self):
        self.listener.close()
        for conn in self.accepted:
            conn.close()


@pytest.fixture
def silent_redis():
    yield from serving(SilentRedis())


@pytest.fixture
def app_on(request, tmp_path, silent_redis):
    """Builds an app whose rate limits count in the silent Redis (more settings by keyword)."""

    def build(**settings):
        return loaded_app(request, f"sqlite:///{tmp_path}/test.db", RATELIMIT_STORAGE_URI=silent_redis.url,
                          RATELIMIT_COMPAT_WRITES="3 per minute", **settings)

    yield build
    db.obj.close_all()


def timed(call):
    started = time.monotonic()
    response = call()
    elapsed = time.monotonic() - started
    assert elapsed < BOUND_S, elapsed
    return response


@pytest.fixture
def logged():
    """The records of app.ratelimit (the app's loggers do not propagate to pytest's caplog)."""
    records = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append
    logger = logging.getLogger("app.ratelimit")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def test_fail_open_serves_limited_requests_unlimited_and_fast_and_says_so(app_on, silent_redis, logged):
    client = app_on().test_client()
    # Past the budget of 3: nothing can count them.
    statuses = [timed(lambda: client.post(COUNT_PATH, json=FORD, headers=HEADERS)).status_code
                for _ in range(5)]
    health = timed(lambda: client.get("/health"))
    assert statuses == [200] * 5 and health.status_code == 200
    assert silent_redis.accepted  # the requests did reach the silent store
    [warning] = logged
    assert "served unlimited" in warning.getMessage() and "RATELIMIT_FAIL_MODE=open" in warning.getMessage()


def test_fail_closed_answers_503_with_retry_after_fast_and_serves_unlimited_routes(app_on, logged):
    client = app_on(RATELIMIT_FAIL_MODE="closed").test_client()
    for _ in range(3):
        response = timed(lambda: client.post(COUNT_PATH, json=FORD, headers=HEADERS))
        assert_error(response, 503, "service_unavailable")
        assert int(response.headers["Retry-After"]) > 0
    write = timed(lambda: client.post("/items/MLA100/compatibilities", headers=HEADERS,
                                      json={"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}))
    assert_error(write, 503, "service_unavailable")
    # Routes without a limit never ask the store.
    assert timed(lambda: client.get("/health")).status_code == 200
    assert timed(lambda: client.get("/items/MLA100", headers=HEADERS)).status_code == 200
    [warning] = logged
    assert "refused with 503" in warning.getMessage()
    # The refused write wrote nothing.
    assert client.get("/items/MLA100/compatibilities", headers=HEADERS).get_json()["products"] == []


def test_the_warning_is_logged_at_most_once_a_minute(app_on, logged, monkeypatch):
    client = app_on().test_client()
    now = [1000.0]
    monkeypatch.setattr(limiter.storage_warnings, "clock", lambda: now[0])
    seen = []
    # At 1000 (logged), 1001, 1031, 1059.9, 1060.1 (logged), 1070.1, 1120.0, 1120.2 (logged).
    for advance in (0, 1, 30, 28.9, 0.2, 10, 49.9, 0.2):
        now[0] += advance
        client.post(COUNT_PATH, json=FORD, headers=HEADERS)
        seen.append(len(logged))
    assert seen == [1, 1, 1, 1, 2, 2, 2, 3]


def test_unknown_fail_mode_is_refused_at_startup(tmp_path):
    with pytest.raises(ValueError, match="RATELIMIT_FAIL_MODE"):
        make_app(f"sqlite:///{tmp_path}/x.db", RATELIMIT_FAIL_MODE="maybe")


def test_a_store_failing_after_the_check_does_not_fail_the_request(tmp_path, monkeypatch):
    """The X-RateLimit-* headers read the store again after the limit check passed; a store that
    fails just then leaves the answer without those headers, not a 500."""
    app = make_app(f"sqlite:///{tmp_path}/x.db")
    with app.app_context(), connection():
        create_schema()
        import_bundle(base_bundle())

    def storage_down(*args, **kwargs):
        raise StorageError(ConnectionError("gone"))

    monkeypatch.setattr(limiter.limiter, "get_window_stats", storage_down)
    response = app.test_client().post(COUNT_PATH, json=FORD, headers=HEADERS)
    assert response.status_code == 200 and "X-RateLimit-Remaining" not in response.headers
    db.obj.close_all()
