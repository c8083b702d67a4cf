"""No lost update across processes: gunicorn with 4 workers, read-modify-write writers sending
If-Match (H3). The in-process version, with its assertions explained, is test_concurrency.py."""
import threading

import pytest

from tests.compat.compat_data import GOL, SELLER_H, full_bundle, product, url
from tests.gunicorn_util import Gunicorn, fresh_database, load_database
from tests.helpers import BACKENDS
from tests.history.helpers import increment_until_won, run_writers, winners_chain

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
    attempts, lock = [], threading.Lock()

    def put_note(note, headers):
        status, answered, _ = server.request(
            "PUT", url(), {"update": {"products": [{"id": COUNTER, "note": note}]}}, {**SELLER_H, **headers})
        return status, answered.get("etag")

    def writer():
        increment_until_won(lambda: read_counter(server), put_note, attempts, lock, WINS_EACH, MAX_TRIES)

    run_writers([writer] * WRITERS, 300)
    total = WRITERS * WINS_EACH
    chain = winners_chain(attempts, initial)  # one winner per ETag sent, in one chain
    assert len(chain) == total
    assert read_counter(server) == (chain[-1][2], total)  # no lost update
    status, _, page = server.request("GET", url("MLA100", "/history?limit=200"), headers=SELLER_H)
    updates = [r for r in reversed(page["results"]) if r["action"] == "UPDATE"]
    assert [r["request_id"] for r in updates] == [a[3] for a in chain]  # commit order, no 412 recorded
    refused = sum(a[1] == 412 for a in attempts)
    print(f"\n{len(attempts)} conditional PUTs from {WRITERS} threads to 4 workers: {total} won, {refused} got 412")
