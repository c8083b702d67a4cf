"""A catalog import beside sellers writing the same items undoes no acknowledged write (issue 30).

The import once read an item's stored (item, product) pairs before it locked the item: a seller's
DELETE committed in between was undone (the deleted rows written back, their history reading
CREATE, DELETE, UPDATE), and a seller's new pair made the import's COPY fail on a duplicate key.
The first test holds a seller's DELETE open until the import waits for it. In the second, writer
threads add, edit and delete on the bundle's items through the API while a bundle of
COMPATIBILITIES rows is imported, three rounds, each bundle listing some pairs the sellers hold and
some new ones; then every item's history, replayed record by record, must give exactly its rows,
and no id an acknowledged DELETE removed may be stored again.
"""
import threading

import pytest

from app.db import connection
from app.models import Compatibility
from app.services.bundle import import_bundle
from app.services.compat import deletes
from tests.bundles import SELLER, TOKENS, base_bundle, item
from tests.compat.compat_data import compatibility_rows
from tests.faults.test_import_during_writes import import_behind_a_write
from tests.helpers import bearer
from tests.history.helpers import item_records

ITEMS, WINDOW, SHIFT, WRITERS, ROUNDS = 20, 500, 50, 4, 3
POOL = WINDOW + SHIFT * ROUNDS
COMPATIBILITIES = ITEMS * WINDOW
WAIT_S = 120
AUTH = bearer(TOKENS[SELLER])


def item_ids():
    return [f"MLA5{n:03d}" for n in range(ITEMS)]


def product_ids():
    """The child products the sellers add from; each round's bundle lists WINDOW of them, SHIFT
    further along than the round before."""
    return [f"MLA7{n:05d}" for n in range(POOL)]


def catalog():
    parents = [{"id": f"MLA6{n:04d}", "domain_id": "MLA-CARS_AND_VANS", "name": f"Modelo {n}", "attributes": []}
               for n in range(10)]
    children = [{"id": pid, "domain_id": "MLA-CARS_AND_VANS", "name": f"Versión {n}",
                 "parent_id": parents[n % 10]["id"], "attributes": []} for n, pid in enumerate(product_ids())]
    return {"products": parents + children,
            "items": [item(item_id, "MLA1747", "MLA-BRAKE_PADS") for item_id in item_ids()]}


def compatibilities(round_):
    """Every item with this round's products, with a note of this round (so each import changes
    the pairs it finds stored)."""
    window = product_ids()[round_ * SHIFT:round_ * SHIFT + WINDOW]
    return {"compatibilities": [{"item_id": item_id, "product_id": pid, "note": f"catálogo {round_}"}
                                for item_id in item_ids() for pid in window]}


def writer(app, round_, items, stop, deleted, failures):
    """Adds two products, edits the note of one, and every second time deletes every seller row, on
    its own items in turn until stopped; records the ids each acknowledged DELETE removed. One
    product is among the pairs this round's bundle adds, the other among the next round's."""
    client = app.test_client()
    start = round_ * SHIFT + WINDOW
    new, later, n = product_ids()[start - SHIFT:start], product_ids()[start:start + SHIFT], 0
    while not stop.is_set() or n < 4:
        item_id = items[n % len(items)]
        added, noted = later[(n * 7) % SHIFT], new[(n * 11 + 3) % SHIFT]
        url = f"/items/{item_id}/compatibilities"
        answers = [client.post(url, json={"products": [{"id": added, "creation_source": "DEFAULT"},
                                                       {"id": noted, "creation_source": "DEFAULT"}]}, headers=AUTH),
                   client.put(url, json={"update": {"products": [{"id": noted, "note": f"vendedor {n}"}]}},
                              headers=AUTH)]
        if n % 2:
            answers.append(client.delete(url, headers=AUTH))
            if answers[-1].status_code == 200:
                deleted.update(answers[-1].get_json()["deleted_compatibilities"])
        failures += [(item_id, a.status_code, a.get_json()) for a in answers if a.status_code != 200]
        n += 1


def replay_problems(item_id):
    """The differences between the item's rows and its history replayed, record by record: a
    CREATE of an id already there, an UPDATE or DELETE of one that is not, and the rows left."""
    state, problems = {}, []
    for change in item_records(item_id):
        cid, action = change.compatibility_id, change.action
        if (action == "CREATE") == (cid in state):
            problems.append(f"{action} of {cid} {'present' if cid in state else 'absent'} (record {change.id})")
        if action == "DELETE":
            state.pop(cid, None)
        else:
            state[cid] = (change.product_id, bool(change.universal), change.source, change.creation_source,
                          change.note_to, change.note_status_to, change.restrictions_to)
    rows = {c.id: (c.product_id, bool(c.universal), c.source, c.creation_source, c.note, c.note_status,
                   c.restrictions) for c in compatibility_rows(item_id)}
    if rows != state:
        extra, missing = rows.keys() - state.keys(), state.keys() - rows.keys()
        changed = [cid for cid in rows.keys() & state.keys() if rows[cid] != state[cid]]
        problems.append(f"rows not in the history: {len(extra)}, history not in the rows: {len(missing)}, "
                        f"differing: {len(changed)}")
    return problems


def test_a_delete_that_commits_while_the_import_waits_is_not_undone(
        client, load_bundle, run_db, database_url, monkeypatch):
    load_bundle(base_bundle())
    url, products = "/items/MLA100/compatibilities", [f"MLA9{n:04d}" for n in range(1, 6)]
    added = client.post(url, json={"products": [{"id": pid, "creation_source": "DEFAULT"} for pid in products]},
                        headers=AUTH)
    assert added.status_code == 200
    seller_rows = {cid for (cid,) in run_db(lambda: list(Compatibility.select(Compatibility.id).tuples()))}
    answers = []
    failures = import_behind_a_write(
        database_url, monkeypatch, deletes, lambda: answers.append(client.delete(url, headers=AUTH)),
        lambda: load_bundle({"compatibilities": [{"item_id": "MLA100", "product_id": pid} for pid in products]}))
    assert failures == []
    assert answers[0].status_code == 200
    assert set(answers[0].get_json()["deleted_compatibilities"]) == seller_rows
    stored = run_db(lambda: list(Compatibility.select(Compatibility.id, Compatibility.source).tuples()))
    assert len(stored) == len(products) and not {cid for cid, _ in stored} & seller_rows
    assert {source for _, source in stored} == {"CATALOGO"}
    assert run_db(replay_problems, "MLA100") == []


@pytest.mark.slow
def test_an_import_beside_writers_undoes_no_acknowledged_write(app_with):
    app = app_with(RATELIMIT_COMPAT_WRITES="1000000 per minute")
    with app.app_context(), connection():
        import_bundle(catalog())
    owned = [item_ids()[n::WRITERS] for n in range(WRITERS)]
    deleted, failures, imported = set(), [], []
    for round_ in range(ROUNDS):
        stop = threading.Event()
        threads = [threading.Thread(target=writer, args=(app, round_, items, stop, deleted, failures))
                   for items in owned]
        for thread in threads:
            thread.start()
        try:
            with app.app_context(), connection():
                imported.append(import_bundle(compatibilities(round_)))
        finally:
            stop.set()
            for thread in threads:
                thread.join(WAIT_S)
        assert not any(thread.is_alive() for thread in threads)
    assert imported == [{"compatibilities": COMPATIBILITIES}] * ROUNDS
    assert failures == []
    with app.app_context(), connection():
        problems = {item_id: p for item_id in item_ids() if (p := replay_problems(item_id))}
        stored = {cid for (cid,) in Compatibility.select(Compatibility.id).tuples()}
    assert problems == {}
    assert deleted and not deleted & stored  # no acknowledged delete undone
