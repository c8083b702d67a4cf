"""Shared helpers of the change-history and ETag tests (extensions.md, H)."""
import threading
import uuid

from app.models import CompatibilityChange, Item
from tests.compat.compat_data import SELLER_H, compatibility_rows, url


def item_records(item_id):
    """The item's change records, oldest first, as models (read through the item's key)."""
    return (CompatibilityChange.select().join(Item, on=Item.key == CompatibilityChange.item_key)
            .where(Item.id == item_id).order_by(CompatibilityChange.id))


def history(client, item_id="MLA100", headers=SELLER_H, **query):
    response = client.get(url(item_id, "/history"), query_string=query, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def records(client, item_id="MLA100", **query):
    """Every record of the item, oldest first (and the page's total is their number)."""
    page = history(client, item_id, limit=200, **query)
    assert page["paging"]["total"] == len(page["results"]), page["paging"]
    return list(reversed(page["results"]))


def etag(client, item_id="MLA100", headers=SELLER_H):
    response = client.get(url(item_id), headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.headers["ETag"]


def stored(run_db, item_id="MLA100"):
    """(compatibility rows, change records) of the item, straight from the database."""
    def read():
        rows = sorted((c.id, c.product_id, c.note, c.note_status, c.restrictions)
                      for c in compatibility_rows(item_id))
        changes = list(item_records(item_id).dicts())
        return rows, changes
    return run_db(read)


def increment_until_won(read_counter, put_note, attempts, lock, wins_each, max_tries):
    """One read-modify-write writer: reads (etag, counter), writes counter + 1 with If-Match, and
    retries on 412 until it has won `wins_each` times. Appends (sent tag, status, answered tag,
    request id, value written) to `attempts`."""
    wins = 0
    for _ in range(max_tries):
        tag, value = read_counter()
        rid = uuid.uuid4().hex
        status, answered = put_note(f"n={value + 1}", {"If-Match": tag, "X-Request-Id": rid})
        with lock:
            attempts.append((tag, status, answered, rid, value + 1))
        wins += status == 200
        if wins == wins_each:
            return


def run_writers(targets, timeout):
    """Runs each target in a thread of its own, all released together; fails if one still runs."""
    barrier = threading.Barrier(len(targets))

    def run(target):
        barrier.wait()
        target()

    threads = [threading.Thread(target=run, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(thread.is_alive() for thread in threads)


def winners_chain(attempts, initial):
    """The winning attempts in commit order: each sent the tag the previous winner was answered.
    Asserts that exactly one writer won per ETag sent, and that the winners form one chain."""
    assert {a[1] for a in attempts} <= {200, 412}, attempts
    won = [a for a in attempts if a[1] == 200]
    assert sorted(a[0] for a in won) == sorted({a[0] for a in attempts})
    by_sent, chain, tag = {a[0]: a for a in won}, [], initial
    while tag in by_sent:
        chain.append(by_sent[tag])
        tag = by_sent[tag][2]
    assert len(chain) == len(won)
    return chain
