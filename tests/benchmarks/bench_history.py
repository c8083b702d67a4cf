"""What the change history costs a write, measured in one process with the two kinds of request
interleaved (so a busy machine slows both alike): POST of a 200-product family to an empty item,
with HISTORY_ENABLED on and off in turn (issue 14's target: p50 with history <= 1.2 x without).

    python -m tests.benchmarks.bench_history [--database-url URL] [--requests 240]

--database-url names an empty database (default: a temporary SQLite file); the catalog is a small
one built by tests/benchmarks/catalog.py (100 families of 200 products, 400 items).
"""
import argparse
import os
import statistics
import tempfile
import time

from app import create_app
from app.db import connection
from app.migrations import create_schema
from tests.benchmarks.catalog import PER_ITEM, TOKEN, Catalog, family

TARGET = 1.2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url")
    parser.add_argument("--requests", type=int, default=240, help="POSTs in all, half with history")
    args = parser.parse_args()
    url = args.database_url or "sqlite:///" + os.path.join(tempfile.mkdtemp(prefix="bench-history-"), "b.db")
    app = create_app({"DATABASE_URL": url, "RATELIMIT_ENABLED": False, "LOG_LEVEL": "WARNING"})
    catalog = Catalog(22_000, args.requests + 100, 20_000)
    with app.app_context(), connection():
        create_schema()
        catalog.build(lambda *a: None)
    client, headers = app.test_client(), {"Authorization": "Bearer " + TOKEN}
    times = {True: [], False: []}
    for n, item in enumerate(catalog.empty_items[:args.requests]):
        app.config["HISTORY_ENABLED"] = recording = n % 2 == 0
        body = {"products_families": [{**family(n % catalog.blocks), "creation_source": "DEFAULT"}]}
        started = time.perf_counter()
        response = client.post(f"/items/{item}/compatibilities", json=body, headers=headers)
        times[recording].append((time.perf_counter() - started) * 1000)
        assert response.get_json()["created_compatibilities_count"] == PER_ITEM, response.get_json()
    with_history, without = statistics.median(times[True]), statistics.median(times[False])
    ratio = with_history / without
    print(f"POST {PER_ITEM} by family on {url.split(':')[0]}, {args.requests // 2} of each, interleaved: "
          f"p50 {with_history:.2f} ms with history, {without:.2f} ms without: x{ratio:.2f} "
          f"(target <= {TARGET}) {'PASS' if ratio <= TARGET else 'MISS'}")


if __name__ == "__main__":
    main()
