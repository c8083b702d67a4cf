"""SQLite: another process holding the write lock (a long import, a backup) past the writer's busy
timeout answers 503 with Retry-After in bounded time, writes nothing, and the app serves again once
the lock is released (issue 16; PostgreSQL's lock timeout is tests/faults/test_database_faults.py)."""
import sqlite3
import time

import pytest

from app.db import connection, db
from app.migrations import create_schema
from app.services.bundle import import_bundle
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import BACKENDS, assert_error, bearer, make_app

pytestmark = pytest.mark.skipif("sqlite" not in BACKENDS, reason="SQLite's write lock")

HEADERS = bearer(TOKENS[SELLER])
ADD = {"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}


def test_write_lock_held_past_the_busy_timeout_answers_503_then_serves(tmp_path):
    path = tmp_path / "test.db"
    app = make_app(f"sqlite:///{path}", SQLITE_BUSY_TIMEOUT_MS=300)
    with app.app_context(), connection():
        create_schema()
        import_bundle(base_bundle())
    client = app.test_client()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        response = client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS)
        elapsed = time.monotonic() - started
        assert_error(response, 503, "service_unavailable")
        assert int(response.headers["Retry-After"]) > 0 and elapsed < 3, elapsed
        assert client.get("/items/MLA100", headers=HEADERS).status_code == 200  # WAL: reads go on
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.get("/items/MLA100/compatibilities", headers=HEADERS).get_json()["products"] == []
    assert client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS).status_code == 200
    db.obj.close_all()
