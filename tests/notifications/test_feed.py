"""N4: a reader paging with next_after while writers commit concurrently, some holding their
transaction open after taking their records' ids, sees every committed change exactly once."""
import random
import threading
import time

import pytest

from app.db import connection, write_transaction
from app.models import Item
from app.services.history.record import CREATE, who, write_records
from app.services.history.scope import OPERATOR, Actor, ChangeScope
from app.services.row_keys.queries import keys_of
from tests.helpers import pg_admin
from tests.notifications.conftest import AUTH, add_vehicle, feed_page

WRITERS, WRITES = 4, 20
ITEMS = ["MLA100", "MLA101", "MLA102", "MLA103"]


def _write(app, writer, n, committed, lock):
    with app.app_context(), connection():
        key = keys_of(Item, [ITEMS[writer]])[ITEMS[writer]]
        with write_transaction():
            rows = [(key, f"{writer:08x}-{n:04x}-{k:04x}-8000-000000000000", CREATE, "MLA90001", False, "SELLER",
                     "DEFAULT", None, None, None, None, None, None, *who(ChangeScope(Actor(OPERATOR))))
                    for k in range(random.randint(1, 3))]
            write_records(rows)  # the ids are taken here...
            time.sleep(random.uniform(0, 0.02))  # ...and committed later, after others may have committed
        with lock:
            committed.update(r[1] for r in rows)


def test_a_reader_sees_every_change_once_while_writers_commit(app, client):
    committed, lock = set(), threading.Lock()

    def writer(w):
        for n in range(WRITES):
            _write(app, w, n, committed, lock)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    seen, after = [], None

    def read_page():
        nonlocal after
        query = {"limit": 7, **({"after": after} if after else {})}
        response = client.get("/users/1001/compatibilities/changes", query_string=query, headers=AUTH)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        seen.extend(r["compatibility_id"] for r in body["results"])
        after = body["next_after"]
        return body["results"]

    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        read_page()
    for t in threads:
        t.join()
    # On PostgreSQL a change shows once every older transaction of the server ended (other databases'
    # too): a page may be empty for a moment after the writers stopped.
    deadline = time.monotonic() + 30
    while not committed <= set(seen) and time.monotonic() < deadline:
        if not read_page():
            time.sleep(0.05)
    read_page()  # and nothing more after that
    assert len(seen) == len(set(seen)), "a change was seen twice"
    assert set(seen) == committed, f"missed: {sorted(committed - set(seen))[:5]}"
    assert len(committed) >= WRITERS * WRITES


def test_the_feed_is_oldest_first_with_item_ids_and_only_the_users_items(app, client):
    add_vehicle(client, "MLA100", "MLA90001")
    add_vehicle(client, "MLA101", "MLA90002")
    add_vehicle(client, "MLA200", "MLA90003", headers={"Authorization": "Bearer TEST-1002-other"})
    body = feed_page(client, {}, 2)
    assert [(r["item_id"], r["product_id"], r["action"]) for r in body["results"]] == [
        ("MLA100", "MLA90001", "CREATE"), ("MLA101", "MLA90002", "CREATE")]
    again = feed_page(client, {"after": body["next_after"]}, 0)
    assert again["results"] == [] and again["next_after"] == body["next_after"]
    add_vehicle(client, "MLA100", "MLA90004")
    later = feed_page(client, {"after": body["next_after"]})
    assert [r["product_id"] for r in later["results"]] == ["MLA90004"]


def test_postgresql_shows_a_change_once_the_older_writing_transactions_of_the_server_end(client, database_url):
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite: one writer at a time, the order is commit order")
    other = pg_admin()  # a connection to another database of the same server
    try:
        other.execute("BEGIN")
        other.execute("SELECT 1")  # open, but it has written nothing: no transaction id, nothing held back
        add_vehicle(client, "MLA100", "MLA90001")
        first = feed_page(client, {})
        assert [r["product_id"] for r in first["results"]] == ["MLA90001"]
        other.execute("SELECT pg_current_xact_id()")  # now a transaction id older than the next change's
        add_vehicle(client, "MLA100", "MLA90002")
        after = {"after": first["next_after"]}
        page = feed_page(client, after, 0)
        assert (page["results"], page["next_after"]) == ([], first["next_after"])
        other.execute("COMMIT")
        assert [r["product_id"] for r in feed_page(client, after)["results"]] == ["MLA90002"]
    finally:
        other.close()
