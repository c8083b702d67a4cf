"""Instructions per request of benchmarked endpoints, counted by valgrind's callgrind in one process.

    python -m tests.benchmarks.instructions --database-url URL [--requests 500] NAME [NAME ...]
        [--products 100000] [--items 10000] [--compatibilities 1000000]

NAME is a scenario's whole name ("GET /items/{id}", "POST /catalog/charts/search"; `--list` prints
them); the database must hold the benchmark catalog built with the same sizes (see
tests.benchmarks.profile). The app is
called as gunicorn's worker calls it (tests.benchmarks.profile.call), warmed up, and only the
measured requests are counted: instrumentation is switched on and off around them with
`callgrind_control`. Needs valgrind (`apt-get install valgrind`).

Two more names count an import instead (per record, the importer's process only): IMPORT_CHUNK, the
benchmark's compatibilities of 100 items that have none (20,000 records, as in a chunk), and
IMPORT_PRODUCTS, 100 more blocks of vehicle products (22,000). The import runs inside a transaction
that is rolled back after it, so the catalog is left as it was and the next run counts the same work.

A count, unlike a time, does not move with the host's load or speed: the same code and catalog
give the same count within a fraction of a percent, so two trees can be compared on a busy or
unsteady machine. It counts the worker's own instructions (Python, the driver, SQLite's engine);
a PostgreSQL server's work is in its own process and is not counted, and a count says nothing of
waiting (I/O, locks, round trips).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

WARM_UP = 300
IMPORT_CHUNK = "import 20,000 compatibilities"
IMPORT_PRODUCTS = "import 22,000 products"
IMPORTS = (IMPORT_CHUNK, IMPORT_PRODUCTS)
IMPORTED_BLOCKS = 100  # items given compatibilities, or blocks of products added, by an import scenario


def _scenarios(sizes):
    """{name: scenario} for a catalog of `sizes` (products, items, compatibilities)."""
    from tests.benchmarks import scenarios
    from tests.benchmarks.catalog import Catalog

    return {s.name: s for s in scenarios.all_scenarios(Catalog(*sizes))}


def _import_bundle(name, sizes):
    from tests.benchmarks import catalog as built

    catalog = built.Catalog(*sizes)
    if name == IMPORT_CHUNK:
        start = catalog.full_items
        return {"compatibilities": list(built.compatibilities(start + IMPORTED_BLOCKS, catalog.blocks, start))}
    start = catalog.n_products
    return {"products": built.products(start + IMPORTED_BLOCKS * built.BLOCK, start)}


def _toggle(state):
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True)


def measured_import(database_url, name, sizes):
    """Inside valgrind: one import with instrumentation on, rolled back after."""
    from app import create_app
    from app.db import connection, db
    from app.services.bundle import import_bundle

    bundle = _import_bundle(name, sizes)
    app = create_app({"DATABASE_URL": database_url})
    with app.app_context(), connection(), db.atomic() as outer:
        _toggle("on")
        import_bundle(bundle)
        _toggle("off")
        outer.rollback()


def measured(database_url, name, count, sizes):
    """Inside valgrind: warm up, then run `count` requests with instrumentation on."""
    from app import create_app
    from tests.benchmarks.profile import call, environs

    if name in IMPORTS:
        measured_import(database_url, name, sizes)
        return
    scenario = _scenarios(sizes).get(name)
    if scenario is None:
        raise SystemExit(f"no scenario is named {name!r}; --list prints them")
    if scenario.unique:
        raise SystemExit("write scenarios change the catalog: measure them through the HTTP benchmark")
    app = create_app({"DATABASE_URL": database_url, "RATELIMIT_ENABLED": False}).wsgi_app
    prepared = environs(scenario, app)
    for n in range(WARM_UP):
        status, body = call(app, *prepared[n % len(prepared)])
    problem = scenario.check(status, body.decode())
    if problem:
        raise SystemExit(f"{name}: {problem}")
    _toggle("on")
    for n in range(count):
        call(app, *prepared[n % len(prepared)])
    _toggle("off")


def count_instructions(database_url, name, count, sizes):
    """Instructions of `count` requests of scenario `name` (or of an import), from a valgrind run of
    this module."""
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={os.path.join(folder, 'callgrind.out')}",
             sys.executable, "-m", "tests.benchmarks.instructions", "--inside",
             "--database-url", database_url, "--requests", str(count), "--products", str(sizes[0]),
             "--items", str(sizes[1]), "--compatibilities", str(sizes[2]), name],
            capture_output=True, text=True, check=False)
    collected = re.search(r"Collected : ([\d,]+)", run.stderr)
    if run.returncode != 0 or collected is None:
        raise SystemExit(f"{name}: valgrind failed:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    return int(collected.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--database-url")
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--compatibilities", type=int, default=1_000_000)
    parser.add_argument("--list", action="store_true", help="print the scenarios' names")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = (args.products, args.items, args.compatibilities)
    if args.list:
        print("\n".join([*_scenarios(sizes), *IMPORTS]))
        return
    if not args.database_url or not args.names:
        parser.error("give --database-url and at least one NAME")
    if args.inside:
        measured(args.database_url, args.names[0], args.requests, sizes)
        return
    for name in args.names:
        total = count_instructions(args.database_url, name, args.requests, sizes)
        if name in IMPORTS:
            records = sum(len(records) for records in _import_bundle(name, sizes).values())
            print(f"{name}: {total:,} instructions, {total // records:,} per record", flush=True)
        else:
            print(f"{name}: {total // args.requests:,} instructions per request ({args.requests} requests)",
                  flush=True)


if __name__ == "__main__":
    main()
