"""Many gunicorn workers writing one item at once keep every invariant, and lose nothing.

gunicorn runs with the production configuration and 4 sync workers on a fresh SQLite file and a
fresh PostgreSQL database. Threads fire conflicting writes (adds of products, families and the
universal setting, PUT delete+create and update, delete-all, delete-by-family, delete-one) at ONE
item. Afterwards the rows of that item are read straight from the database and checked against
what the successful responses said. tests/compat/test_concurrency.py is the in-process version.
"""
import random
import sqlite3
import threading
from collections import Counter

import psycopg
import pytest

from app.models import Compatibility
from tests.bundles import BRANDS, SELLER, TOKENS, _category_rule, base_bundle, item
from tests.gunicorn_util import Gunicorn, fresh_database, load_database
from tests.helpers import BACKENDS, bearer

pytestmark = pytest.mark.slow

ITEM = "MLA150"
LIMIT = 24
PATH = f"/items/{ITEM}/compatibilities"
HEADERS = bearer(TOKENS[SELLER])
PRODUCTS = [f"MLA9{n:04d}" for n in range(1, 37)]  # every MLA child vehicle
MODELS = [model for _, models in BRANDS.values() for model in models]
# (status, error) answers that a conflicting writer may legitimately get.
EXPECTED_REFUSALS = {(400, "too_many_compatibilities"), (400, "item_is_universal"),
                     (400, "item_has_compatibilities"), (404, "compatibility_not_found")}
THREADS = 16
# Bounded, but long enough for a loaded 2-core machine: writers queue on one item's lock.
FIRE_TIMEOUT_S = 240


def concurrency_bundle():
    """base_bundle() plus MLA150, an item of a category that takes notes and the universal setting."""
    bundle = base_bundle()
    bundle["categories"].append({"id": "MLA7777", "site_id": "MLA", "name": "Alfombras premium",
                                 "domain_id": "MLA-CAR_FLOOR_MATS"})
    for entry in bundle["domain_compatibilities"]:
        if entry["domain_id"] == "MLA-CAR_FLOOR_MATS":
            entry["compatibilities"][0]["categories"].append(_category_rule(
                "MLA7777", required=False, notes="ENABLED", restrictions="DISABLED", universal="ENABLED"))
    bundle["items"].append(item(ITEM, "MLA7777", "MLA-CAR_FLOOR_MATS", title="Alfombras premium"))
    return bundle


def product(pid):
    return {"id": pid, "creation_source": "DEFAULT"}


def family(model, creating=True):
    selector = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "MODEL", "value_name": model}]}
    return {**selector, "creation_source": "DEFAULT"} if creating else selector


class Server:
    """The running gunicorn, plus a record of every request fired and its answer."""

    def __init__(self, gunicorn):
        self.gunicorn = gunicorn
        self.log = []
        self.lock = threading.Lock()

    def send(self, kind, method, path=PATH, body=None):
        status, _, answer = self.gunicorn.request(method, path, body, HEADERS)
        with self.lock:
            self.log.append((kind, status, answer, body))
        return status, answer

    def fire(self, requests, seed):
        """Runs the request functions from THREADS threads released together."""
        random.Random(seed).shuffle(requests)
        queues = [requests[n::THREADS] for n in range(THREADS)]
        barrier = threading.Barrier(THREADS)
        failures = []

        def run(queue):
            barrier.wait()
            for request in queue:
                try:
                    request(self)
                except Exception as exc:  # a dropped connection is a failure too
                    failures.append(repr(exc))

        threads = [threading.Thread(target=run, args=(queue,)) for queue in queues]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(FIRE_TIMEOUT_S)
        # The final state is read only once every request has been answered.
        assert not any(t.is_alive() for t in threads), f"requests still running after {FIRE_TIMEOUT_S} s"
        assert not failures, failures[:5]


def add_product(pid):
    return lambda s: s.send(("add", pid), "POST", body={"products": [product(pid)]})


def add_family(model):
    return lambda s: s.send(("family", model), "POST", body={"products_families": [family(model)]})


def set_universal(s):
    s.send(("universal",), "POST", body={"universal": True})


def put_replace(pid):
    return lambda s: s.send(("put",), "PUT", body={"delete": {"products": [{"id": pid}]},
                                                   "create": {"products": [product(pid)]}})


def put_note(pid):
    return lambda s: s.send(("put",), "PUT", body={"update": {"products": [{"id": pid, "note": "Con kit"}]}})


def delete_all(s):
    s.send(("delete",), "DELETE")


def delete_family(model):
    return lambda s: s.send(("delete",), "DELETE", body={"products_families": [family(model, creating=False)]})


def delete_one(seed):
    def run(s):
        status, listing = s.send(("read",), "GET")
        ids = [entry["id"] for entry in listing.get("products", [])] if status == 200 else []
        # With nothing listed, an id that never existed: still a request, answered 404.
        target = random.Random(seed).choice(ids) if ids else "00000000-0000-4000-8000-000000000000"
        s.send(("delete",), "DELETE", f"{PATH}/{target}")
    return run


def read_rows(database_url):
    """(id, product_id, universal) of the item, straight from the database."""
    sql = (f'SELECT c.id, p.id, c.universal FROM "{Compatibility._meta.table_name}" c'
           ' JOIN "item" i ON i."key" = c.item_key LEFT JOIN "product" p ON p."key" = c.product_key'
           " WHERE i.id = %s")
    if database_url.startswith("sqlite"):
        with sqlite3.connect(database_url[len("sqlite:///"):]) as conn:
            rows = conn.execute(sql.replace("%s", "?"), (ITEM,)).fetchall()
    else:
        with psycopg.connect(database_url) as conn, conn.cursor() as cur:
            cur.execute(sql, (ITEM,))
            rows = cur.fetchall()
        conn.close()
    return [(cid, pid, bool(universal)) for cid, pid, universal in rows]


def check_invariants(log, rows):
    """No 500, only expected refusals, limit kept, universal XOR specific, no duplicate."""
    answers = Counter((status, answer.get("error") if isinstance(answer, dict) else None)
                      for _, status, answer, _ in log)
    unexpected = [(kind, status, answer) for kind, status, answer, _ in log
                  if status != 200 and (status, answer.get("error")) not in EXPECTED_REFUSALS]
    assert not unexpected, unexpected[:5]
    assert "database is locked" not in repr(log)
    products = [pid for _, pid, universal in rows if not universal]
    universal = [cid for cid, _, is_universal in rows if is_universal]
    assert len(rows) <= LIMIT, len(rows)
    assert len(universal) <= 1 and not (universal and products), rows
    assert len(products) == len(set(products)), Counter(products).most_common(3)
    return answers


def created(log):
    return sum(answer["created_compatibilities_count"] for kind, status, answer, _ in log
               if status == 200 and kind[0] in ("add", "family", "universal"))


def deleted_ids(log):
    return [cid for kind, status, answer, _ in log if status == 200 and kind[0] == "delete"
            for cid in answer["deleted_compatibilities"]]


@pytest.fixture(params=BACKENDS)
def server(request, tmp_path):
    with fresh_database(request.param, tmp_path) as url:
        load_database(url, concurrency_bundle(), tmp_path)
        with Gunicorn(url, tmp_path, workers=4, COMPAT_MAX_PER_ITEM=LIMIT) as gunicorn:
            yield Server(gunicorn), url
            errors = gunicorn.errors()
        assert "Traceback" not in errors and "database is locked" not in errors, errors[-3000:]


def test_parallel_conflicting_writes_to_one_item_keep_every_invariant(server):
    s, url = server
    # Phase 1, adds only: distinct products, the same product ten times, overlapping families, and
    # the universal setting. With no delete, every row must be one a 200 answer counted.
    adds = [add_product(pid) for pid in PRODUCTS] + [add_product(PRODUCTS[0])] * 10
    adds += [add_family(model) for model in MODELS] + [set_universal] * 8
    s.fire(adds, seed=1)
    rows = read_rows(url)
    check_invariants(s.log, rows)
    assert created(s.log) == len(rows), "a 200 counted a row that is not there, or a row nobody counted"
    present = {pid for _, pid, _ in rows}
    for kind, status, _, _ in s.log:
        if status == 200 and kind[0] == "add":
            assert kind[1] in present, f"product {kind[1]} answered 200 but is missing"
    phase1 = len(s.log)
    assert phase1 == len(adds), "every request of phase 1 has its answer in the log"
    assert any(status == 200 for _, status, _, _ in s.log)

    # Phase 2, everything at once, deletes included.
    rng = random.Random(2)
    mixed = [add_product(rng.choice(PRODUCTS)) for _ in range(40)]
    mixed += [add_family(rng.choice(MODELS)) for _ in range(10)] + [set_universal] * 10
    mixed += [put_replace(rng.choice(PRODUCTS)) for _ in range(15)]
    mixed += [put_note(rng.choice(PRODUCTS)) for _ in range(15)]
    mixed += [delete_all] * 8 + [delete_family(rng.choice(MODELS)) for _ in range(10)]
    mixed += [delete_one(n) for n in range(20)]
    s.fire(mixed, seed=3)
    final = read_rows(url)
    answers = check_invariants(s.log, final)
    gone = deleted_ids(s.log)
    assert len(gone) == len(set(gone)), "one compatibility was deleted by two requests"
    assert not set(gone) & {cid for cid, _, _ in final}, "a deleted compatibility is still there"
    # PUT delete+create and PUT update leave the count as it was; everything else is in the answers.
    assert len(final) == created(s.log) - len(gone), (len(final), created(s.log), len(gone))

    fired = len(s.log)
    print(f"\n[{url.split(':')[0]}] requests fired: {fired} ({phase1} adds-only, {fired - phase1} mixed) "
          f"from {THREADS} threads to 4 workers; answers: {dict(answers)}; final rows: {len(final)}")
    assert fired == len(adds) + len(mixed) + 20, "delete_one reads, then deletes: two requests each"
