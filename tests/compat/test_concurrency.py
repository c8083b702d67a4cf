"""Concurrent writers of one item: the item lock and the checks inside the transaction keep
the limits and rule 3 (universal XOR specific) whatever the interleaving."""
import threading

import pytest

from tests.compat.compat_data import GOL, SELLER_H, compatibility_rows, full_bundle, product, url


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle())


def run_together(app, requests):
    """Sends each (method, path, body) from its own thread, all released at once."""
    barrier = threading.Barrier(len(requests))
    statuses = [None] * len(requests)

    def send(n, method, path, body):
        client = app.test_client()
        barrier.wait()
        statuses[n] = client.open(path, method=method, json=body, headers=SELLER_H).status_code

    threads = [threading.Thread(target=send, args=(n, *request)) for n, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return statuses


def compatibilities(run_db, item_id):
    return run_db(lambda: compatibility_rows(item_id))


def test_concurrent_adds_never_pass_the_per_item_limit(app, run_db):
    app.config["COMPAT_MAX_PER_ITEM"] = 2
    statuses = run_together(app, [("POST", url(), {"products": [product(pid)]}) for pid in GOL])
    assert sorted(statuses) == [200, 200, 400, 400, 400, 400]
    assert len(compatibilities(run_db, "MLA100")) == 2


def test_concurrent_universal_and_specific_never_coexist(app, run_db):
    requests = [("POST", url("MLA102"), {"universal": True}) for _ in range(3)]
    requests += [("POST", url("MLA102"), {"products": [product(pid)]}) for pid in GOL[:3]]
    statuses = run_together(app, requests)
    assert all(status in (200, 400) for status in statuses), statuses
    rows = compatibilities(run_db, "MLA102")
    universal = [r for r in rows if r.universal]
    assert len(universal) <= 1
    assert not (universal and len(rows) > 1)


def test_concurrent_adds_of_the_same_product_store_it_once(app, run_db):
    statuses = run_together(app, [("POST", url(), {"products": [product("MLA90001")]}) for _ in range(5)])
    assert statuses == [200] * 5
    assert len(compatibilities(run_db, "MLA100")) == 1
