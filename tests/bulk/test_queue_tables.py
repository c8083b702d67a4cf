"""huey's PostgreSQL storage creates its tables when a process first builds the queue. Processes that
build it at the same moment on a new database (two workers started together, two web workers' first
uploads) must all get a queue: PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe against itself,
and a benchmark's second worker died at start on its unique violation."""
import threading

import pytest

from app.services.bulk.queue import make_huey
from tests.gunicorn_util import fresh_database
from tests.helpers import BACKENDS, make_app

pytestmark = pytest.mark.skipif("postgresql" not in BACKENDS, reason="SQLite's DDL takes its one write lock")
BUILDERS = 8


def built_at_once(url, settings):
    """(queues, failures) of BUILDERS threads building the queue on `url` at the same moment."""
    start, failures, queues = threading.Barrier(BUILDERS), [], []

    def build():
        start.wait()
        try:
            queues.append(make_huey(url, "race", settings))
        except Exception as exc:  # noqa: BLE001 (what the test reports)
            failures.append(exc)

    threads = [threading.Thread(target=build) for _ in range(BUILDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return queues, failures


def test_queues_built_at_once_on_a_new_postgresql_database_all_start(tmp_path):
    for _ in range(3):  # a race: a few new databases, so that one that lost it would show
        with fresh_database("postgresql", tmp_path) as url:
            queues, failures = built_at_once(url, make_app(url).config)
            try:
                assert failures == [] and len(queues) == BUILDERS
                queues[0].storage.enqueue(b"task")  # the tables are there and usable
                assert queues[-1].storage.queue_size() == 1
            finally:
                for queue in queues:
                    queue.storage.close()
