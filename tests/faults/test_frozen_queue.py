"""A frozen PostgreSQL server under the task queue's storage (huey's tables beside the database, or a
QUEUE_URL of its own) fails J1's enqueue and a worker's poll within DB_STATEMENT_TIMEOUT_MS and the
client's margin, never hangs them, and the storage works again once the server wakes up: its
connections are bounded as the service's own are (app/db.py, deadline_connector)."""
import time

import psycopg
import pytest

from app.config import load_settings
from app.db import DEADLINE_MARGIN_MS
from app.services.bulk.queue import JobQueue
from tests.helpers import BACKENDS
from tests.pg_server import own_postgres

pytestmark = [pytest.mark.slow, pytest.mark.skipif("postgresql" not in BACKENDS, reason="PostgreSQL faults")]

STATEMENT_TIMEOUT_MS = 1000
BOUND_S = (STATEMENT_TIMEOUT_MS + DEADLINE_MARGIN_MS) / 1000 + 1


def _fails_within_the_bound(call):
    started = time.monotonic()
    with pytest.raises(psycopg.OperationalError):
        call()
    took = time.monotonic() - started
    assert took < BOUND_S, took


def test_a_frozen_queue_database_fails_the_enqueue_and_the_poll_within_the_deadline():
    with own_postgres() as postgres:
        url = postgres.database("queue")
        settings = load_settings({}, {"DB_STATEMENT_TIMEOUT_MS": STATEMENT_TIMEOUT_MS, "DB_LOCK_TIMEOUT_MS": 500,
                                      "DB_CONNECT_TIMEOUT_S": 2})
        queue = JobQueue(url, settings, limits=None)
        try:
            queue.enqueue(1)
            assert queue.huey.pending_count() == 1
            postgres.freeze()
            try:
                _fails_within_the_bound(lambda: queue.enqueue(2))  # J1's enqueue
                _fails_within_the_bound(queue.huey.dequeue)  # a worker's poll
                _fails_within_the_bound(queue.huey.pending_count)
            finally:
                postgres.thaw()
            assert queue.huey.pending_count() == 1  # a new connection, the queue as it was
            assert queue.huey.dequeue() is not None
        finally:
            queue.close()
