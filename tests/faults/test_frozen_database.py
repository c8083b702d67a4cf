"""A frozen PostgreSQL server (SIGSTOP: a hung host, a storage stall) costs a request no more than
DB_STATEMENT_TIMEOUT_MS plus a second, /health says 503, no gunicorn worker is killed for it, and
the service answers 200 again at once when the server wakes up.

The server enforces statement_timeout, so a frozen one enforces nothing: the deadline is the
client's own (app/db.py, DeadlineConnection). The test runs a PostgreSQL server of its own, since
freezing the machine's would stall every other test.
"""
import threading
import time

import pytest

from tests.bundles import SELLER, TOKENS, base_bundle
from tests.gunicorn_util import Gunicorn, load_database
from tests.helpers import BACKENDS, bearer
from tests.pg_server import own_postgres

pytestmark = [pytest.mark.slow, pytest.mark.skipif("postgresql" not in BACKENDS, reason="PostgreSQL faults")]

STATEMENT_TIMEOUT_MS = 2000
BOUND_S = STATEMENT_TIMEOUT_MS / 1000 + 1
WORKER_TIMEOUT_S = 4
FROZEN_S = WORKER_TIMEOUT_S + 3  # longer than gunicorn's worker timeout
HEADERS = bearer(TOKENS[SELLER])
ADD = {"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}
CALLS = [("GET", "/health", None), ("GET", "/items/MLA100", None),
         ("GET", "/items/MLA101/compatibilities", None), ("POST", "/items/MLA103/compatibilities", ADD)]


def timed(server, method, path, body):
    started = time.monotonic()
    status, headers, answer = server.request(method, path, body, headers=HEADERS, timeout=FROZEN_S * 3)
    return status, headers, answer, time.monotonic() - started


def test_frozen_server_answers_503_within_the_deadline_and_kills_no_worker(tmp_path):
    with own_postgres() as postgres:
        url = postgres.database("frozen")
        load_database(url, base_bundle(), tmp_path)
        settings = {"DB_STATEMENT_TIMEOUT_MS": STATEMENT_TIMEOUT_MS, "DB_LOCK_TIMEOUT_MS": 1000,
                    "DB_CONNECT_TIMEOUT_S": 2, "GUNICORN_TIMEOUT": WORKER_TIMEOUT_S}
        with Gunicorn(url, tmp_path, workers=2, **settings) as server:
            for method, path, body in CALLS[:3]:
                assert timed(server, method, path, body)[0] == 200

            answers, stop = [], threading.Event()

            def client(calls):
                while not stop.is_set():
                    for call in calls:
                        answers.append((call[1], *timed(server, *call)))

            # One client per worker: each answer's time is the worker's, not a wait in the queue.
            clients = [threading.Thread(target=client, args=(CALLS[i::2],)) for i in range(2)]
            postgres.freeze()
            frozen_at = time.monotonic()
            try:
                for thread in clients:
                    thread.start()
                time.sleep(FROZEN_S)
                stop.set()
                for thread in clients:
                    thread.join(BOUND_S * 4)
                assert not any(thread.is_alive() for thread in clients)
                assert time.monotonic() - frozen_at >= FROZEN_S
            finally:
                postgres.thaw()
            thawed_at = time.monotonic()

            recovered = [(path, *timed(server, method, path, body)) for method, path, body in CALLS for _ in range(2)]
            recovered_in = time.monotonic() - thawed_at

            assert len(answers) >= 4
            for path, status, headers, answer, elapsed in answers:
                assert status == 503, (path, answer)
                assert answer["error"] == "service_unavailable" and int(headers["retry-after"]) > 0, answer
                assert elapsed < BOUND_S, (path, elapsed)
            assert {path for path, *_ in answers} >= {"/health", "/items/MLA100"}
            for path, status, _, answer, _ in recovered:
                assert status == 200, (path, answer)
            assert recovered_in < 1, recovered_in
            log = server.errors()
            assert "WORKER TIMEOUT" not in log and log.count("Booting worker") == 2, log
            assert "did not answer within" in log
