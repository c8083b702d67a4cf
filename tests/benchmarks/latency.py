"""Per-request latency of benchmark scenarios in one process, for a machine shared with other work.

    python -m tests.benchmarks.latency --database-url URL [--products N] [--requests 300] NAME...

Calls the app through its WSGI entry point (as tests.benchmarks.profile does) one request at a time
and prints, per scenario, the median and the fastest wall time, the mean CPU time of this process and
the mean number of SQL statements per request (each a round trip on PostgreSQL). When other jobs
saturate the cores, wrk's p50 measures the queue for a core; the fastest and the CPU figures and the
statement count still show the service's own cost (for PostgreSQL the server's CPU is in the wall
time only). The database must hold the catalog of tests.benchmarks.run with the same sizes.
"""
import argparse
import statistics
import time

from app import create_app
from tests.benchmarks import scenarios
from tests.benchmarks.catalog import Catalog
from tests.benchmarks.profile import call, environs
from tests.helpers import recorded_statements


def measure(app, scenario, count):
    prepared = environs(scenario, app)
    status, body = call(app, *prepared[0])
    problem = scenario.check(status, body.decode())
    if problem:
        raise SystemExit(f"{scenario.name}: {problem}")
    for n in range(min(50, count)):  # warm caches and prepared queries
        call(app, *prepared[n % len(prepared)])
    walls, cpu_started = [], time.process_time()
    for n in range(count):
        started = time.perf_counter()
        call(app, *prepared[n % len(prepared)])
        walls.append((time.perf_counter() - started) * 1000)
    cpu = (time.process_time() - cpu_started) / count * 1000
    return statistics.median(walls), min(walls), cpu, statements(app, prepared)


def statements(app, prepared):
    """The mean number of statements a request of the pool runs (each one a round trip on PostgreSQL)."""
    with recorded_statements() as executed:
        for environ in prepared[:20]:
            call(app, *environ)
    return len(executed) / min(20, len(prepared))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+", help="parts of scenario names, e.g. top_values chunks")
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--compatibilities", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    catalog = Catalog(args.products, args.items, args.compatibilities)
    selected = [s for s in scenarios.all_scenarios(catalog)
                if s.name == "GET /health" or (any(n in s.name for n in args.names) and not s.unique)]
    app = create_app({"DATABASE_URL": args.database_url, "RATELIMIT_ENABLED": False}).wsgi_app
    print(f"{'scenario':58} {'p50 ms':>8} {'min ms':>8} {'cpu ms':>8} {'stmts':>6}  target")
    for scenario in selected:
        p50, fastest, cpu, count = measure(app, scenario, args.requests)
        print(f"{scenario.name:58} {p50:8.2f} {fastest:8.2f} {cpu:8.2f} {count:6.1f}  {scenario.target_text()}",
              flush=True)


if __name__ == "__main__":
    main()
