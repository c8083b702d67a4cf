"""No lost update (H3) and no half-written history (H1) under concurrent writers, on both databases.

Writers are threads of this process, each with its own client and database connection, as in
tests/test_compat_concurrency.py; the item lock and the If-Match check inside the transaction are
what serialise them.
"""
import threading

import pytest

from app.services.compat import deletes, store, writes
from tests.compat.compat_data import GOL, SELLER_H, full_bundle, product, url
from tests.history.helpers import etag, increment_until_won, run_writers, stored, winners_chain

WRITERS, WINS_EACH, MAX_TRIES = 4, 3, 200
COUNTER = GOL[0]


@pytest.fixture(autouse=True)
def loaded(load_bundle, client):
    load_bundle(full_bundle())
    assert client.post(url(), json={"products": [product(COUNTER, note="n=0")]}, headers=SELLER_H).status_code == 200


def read_counter(client):
    response = client.get(url(), query_string={"extended": "true"}, headers=SELLER_H)
    note = next(e["note"] for e in response.get_json()["products"] if e["catalog_product_id"] == COUNTER)
    return response.headers["ETag"], int(note.split("=")[1])


def test_read_modify_write_with_if_match_loses_no_update(app, client, run_db):
    """Each writer reads the counter (a note), adds one and writes it back with the ETag it read,
    retrying on 412 until it has won WINS_EACH times."""
    attempts, lock = [], threading.Lock()
    initial = etag(client)

    def writer():
        own = app.test_client()

        def put_note(note, headers):
            response = own.put(url(), json={"update": {"products": [{"id": COUNTER, "note": note}]}},
                               headers={**SELLER_H, **headers})
            return response.status_code, response.headers.get("ETag")

        increment_until_won(lambda: read_counter(own), put_note, attempts, lock, WINS_EACH, MAX_TRIES)

    run_writers([writer] * WRITERS, 120)
    total = WRITERS * WINS_EACH
    chain = winners_chain(attempts, initial)  # one winner per ETag sent, in one chain
    assert len(chain) == total and chain[-1][2] == etag(client)
    assert [a[4] for a in chain] == list(range(1, total + 1))
    assert read_counter(client)[1] == total  # no lost update
    # The history: one record per winning write, in commit order, none for the 412s.
    _, changes = stored(run_db)
    updates = [c for c in changes if c["action"] == "UPDATE"]
    assert [c["request_id"] for c in updates] == [a[3] for a in chain]
    assert [(c["note_from"], c["note_to"]) for c in updates] == [(f"n={n}", f"n={n + 1}") for n in range(total)]
    losers = {a[3] for a in attempts if a[1] == 412}
    assert not losers & {c["request_id"] for c in changes}
    print(f"\n{len(attempts)} conditional writes from {WRITERS} writers: {total} won, {len(losers)} answered 412")


def test_writers_holding_the_same_etag_one_wins_the_others_get_412(app, client, run_db):
    # Products the item lacks (not COUNTER): re-adding one changes nothing, so its ETag would stay.
    rounds, products = 3, [f"MLA9{n:04d}" for n in range(2, 14)]
    winners = []
    for r in range(rounds):
        tag = etag(client)
        mine = products[r * WRITERS:(r + 1) * WRITERS]
        statuses = {}

        def add(pid, tag=tag, statuses=statuses):
            statuses[pid] = app.test_client().post(url(), json={"products": [product(pid)]},
                                                   headers={**SELLER_H, "If-Match": tag}).status_code

        run_writers([lambda pid=pid: add(pid) for pid in mine], 60)
        assert sorted(statuses.values()) == [200] + [412] * (WRITERS - 1), statuses
        winners += [pid for pid, status in statuses.items() if status == 200]
    rows, changes = stored(run_db)
    assert sorted(row[1] for row in rows) == sorted([COUNTER, *winners])
    assert [c["product_id"] for c in changes] == [COUNTER, *winners]  # creates, in commit order


def _fail_after_first_row(real):
    def insert(model, fields, rows, *args, **kwargs):
        real(model, fields, list(rows)[:1], *args, **kwargs)
        raise RuntimeError("injected failure after the first row")
    return insert


def _fail(*args, **kwargs):
    raise RuntimeError("injected failure after the rows were written")


@pytest.mark.parametrize("method, body, target, replacement", [
    ("POST", {"products": [product(pid) for pid in GOL[1:]]}, (store, "insert_rows"), "first-row"),
    ("PUT", {"delete": {"products": [{"id": COUNTER}]}, "create": {"products": [product(GOL[1])]},
             "update": {"products": [{"id": GOL[1], "note": "x"}]}}, (writes, "check_item_limit"), "fail"),
    ("DELETE", None, (deletes, "refresh_items"), "fail"),
])
def test_a_write_failing_half_way_leaves_neither_rows_nor_history(client, run_db, monkeypatch, method, body,
                                                                  target, replacement):
    before, tag = stored(run_db), etag(client)
    module, name = target
    monkeypatch.setattr(module, name, _fail_after_first_row(getattr(module, name)) if replacement == "first-row"
                        else _fail)
    response = client.open(url(), method=method, json=body, headers={**SELLER_H, "If-Match": tag})
    assert response.status_code == 500
    monkeypatch.undo()
    assert stored(run_db) == before
    assert etag(client) == tag
