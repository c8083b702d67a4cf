"""A catalog import overlapping a seller's write leaves every item's derived state right (issue 16).

The import's refresh of derived state (compatibilities_count, tags) used to run without locking
the items: on PostgreSQL its UPDATE waited for the seller's row lock, then recomputed the count from
the snapshot its statement started with, which did not hold the seller's new compatibilities, and
wrote that over the seller's result. The seller's write is held open here, after its own refresh
and before its commit, until the import is seen waiting for it; then both finish and every item is
compared with a recomputation from the rows.
"""
import threading
import time

import psycopg
from peewee import fn

from app.db import db
from app.models import Compatibility, Item
from app.services.compat import writes
from app.services.compat.item_state import refresh_items
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import PG_ADMIN_URL, bearer

# Bounds every wait; generous, for a loaded CI machine (a run takes about a second).
WAIT_S = 30


def derived_state():
    """{item id: (compatibilities_count, tag_incomplete, tag_pending)} as stored."""
    return {row.id: (row.compatibilities_count, row.tag_incomplete, row.tag_pending)
            for row in Item.select().order_by(Item.id)}


def stale_items():
    """Items whose stored state differs from one recomputed from the rows (recomputed in a
    transaction that is rolled back), or whose count is not their number of compatibilities."""
    stored = derived_state()
    counted = dict(Compatibility.select(Item.id, fn.COUNT(Compatibility.id))
                   .join(Item, on=(Item.key == Compatibility.item)).group_by(Item.id).tuples())
    with db.atomic() as transaction:
        refresh_items(None)
        fresh = derived_state()
        transaction.rollback()
    return {item_id: (state, fresh[item_id], counted.get(item_id, 0)) for item_id, state in stored.items()
            if state != fresh[item_id] or state[0] != counted.get(item_id, 0)}


def wait_until_blocked(database_url, importer, failures):
    """Until the import waits on a lock (PostgreSQL), or has had time to queue (SQLite's writers
    queue on the database lock, invisible from outside)."""
    if not database_url.startswith("postgresql"):
        time.sleep(0.5)
        return
    name = database_url.rsplit("/", 1)[1]
    admin = psycopg.connect(PG_ADMIN_URL)
    # In a transaction PostgreSQL answers pg_stat_activity from one snapshot, taken at its first
    # read: the loop would never see the import start waiting.
    admin.autocommit = True
    try:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and importer.is_alive():
            with admin.cursor() as cur:
                cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                            "AND wait_event_type = 'Lock'", (name,))
                if cur.fetchone()[0]:
                    return
            time.sleep(0.05)
        raise AssertionError(f"the import never waited for the seller's write (failures: {failures})")
    finally:
        admin.close()


def import_behind_a_write(database_url, monkeypatch, module, write, load):
    """Runs `write`, an API write whose last step before its commit is `module.refresh_items`, in a
    thread held open after that step; then `load`, an import, in another, and lets the write commit
    once the import waits for it. Answers the import's failures once both have finished."""
    holding, release = threading.Event(), threading.Event()
    refresh = module.refresh_items

    def refresh_then_hold(item_ids):
        refresh(item_ids)
        if not holding.is_set():
            holding.set()
            release.wait(WAIT_S)

    monkeypatch.setattr(module, "refresh_items", refresh_then_hold)
    failures = []

    def run_import():
        try:
            load()
        except Exception as exc:  # reported by the caller
            failures.append(exc)

    writer = threading.Thread(target=write)
    writer.start()
    assert holding.wait(WAIT_S), "the write never reached its refresh"
    importer = threading.Thread(target=run_import)
    importer.start()
    try:
        wait_until_blocked(database_url, importer, failures)
    finally:
        release.set()
        writer.join(WAIT_S)
        importer.join(WAIT_S)
    assert not writer.is_alive() and not importer.is_alive()
    return failures


def test_import_overlapping_a_write_leaves_every_count_and_tag_right(
        app, client, load_bundle, run_db, database_url, monkeypatch):
    load_bundle(base_bundle())
    assert run_db(stale_items) == {}
    answers = []

    def write():
        body = {"products": [{"id": f"MLA9{n:04d}", "creation_source": "DEFAULT"} for n in range(1, 8)]}
        answers.append(client.post("/items/MLA100/compatibilities", json=body, headers=bearer(TOKENS[SELLER])))

    # The category rules decide which items are incomplete, so their re-import refreshes every item.
    failures = import_behind_a_write(database_url, monkeypatch, writes, write, lambda: load_bundle(
        {"domain_compatibilities": base_bundle()["domain_compatibilities"]}))
    assert failures == []
    assert answers[0].status_code == 200 and answers[0].get_json() == {"created_compatibilities_count": 7}

    assert run_db(stale_items) == {}
    item = client.get("/items/MLA100", headers=bearer(TOKENS[SELLER])).get_json()
    assert "incomplete_compatibilities" not in item["tags"]
