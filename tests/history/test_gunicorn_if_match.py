"""No lost update across processes: gunicorn with 4 workers, read-modify-write writers sending
If-Match (H3). The in-process version, with its assertions explained, is test_concurrency.py."""
import threading
import uuid

import pytest

from tests.compat_data import GOL, SELLER_H, full_bundle, product, url
from tests.conftest import BACKENDS
from tests.gunicorn_util import Gunicorn, fresh_database, load_database

pytestmark = pytest.mark.slow

WRITERS, WINS_EACH, MAX_TRIES = 8, 3, 400
COUNTER = GOL[0]


@pytest.fixture(params=BACKENDS)
def server(request, tmp_path):
    with fresh_database(request.param, tmp_path) as database_url:
        load_database(database_url, full_bundle(), tmp_path)
        with Gunicorn(database_url, tmp_path, workers=4) as gunicorn:
            yield gunicorn
            errors = gunicorn.errors()
        assert "Traceback" not in errors, errors[-3000:]


def read_counter(server):
    status, headers, body = server.request("GET", url() + "?extended=true", headers=SELLER_H)
    assert status == 200, body
    note = next(e["note"] for e in body["products"] if e["catalog_product_id"] == COUNTER)
    return headers["etag"], int(note.split("=")[1])


def test_conditional_writers_in_four_processes_lose_no_update(server):
    status, _, _ = server.request("POST", url(), {"products": [product(COUNTER, note="n=0")]}, SELLER_H)
    assert status == 200
    initial, _ = read_counter(server)
    attempts, lock, barrier = [], threading.Lock(), threading.Barrier(WRITERS)

    def writer():
        wins = 0
        barrier.wait()
        for _ in range(MAX_TRIES):
            tag, value = read_counter(server)
            rid = uuid.uuid4().hex
            status, headers, _ = server.request(
                "PUT", url(), {"update": {"products": [{"id": COUNTER, "note": f"n={value + 1}"}]}},
                {**SELLER_H, "If-Match": tag, "X-Request-Id": rid})
            with lock:
                attempts.append((tag, status, headers.get("etag"), rid))
            wins += status == 200
            if wins == WINS_EACH:
                return

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)

    total = WRITERS * WINS_EACH
    assert {a[1] for a in attempts} <= {200, 412}
    won = {a[0]: a for a in attempts if a[1] == 200}
    assert len(won) == total == sum(a[1] == 200 for a in attempts)  # one winner per ETag sent
    chain, tag = [], initial
    while tag in won:
        chain.append(won[tag])
        tag = won[tag][2]
    assert len(chain) == total
    final_tag, final_value = read_counter(server)
    assert (final_tag, final_value) == (tag, total)  # no lost update
    status, _, page = server.request("GET", url("MLA100", "/history?limit=200"), headers=SELLER_H)
    updates = [r for r in reversed(page["results"]) if r["action"] == "UPDATE"]
    assert [r["request_id"] for r in updates] == [a[3] for a in chain]  # commit order, no 412 recorded
    refused = sum(a[1] == 412 for a in attempts)
    print(f"\n{len(attempts)} conditional PUTs from {WRITERS} threads to 4 workers: {total} won, {refused} got 412")
