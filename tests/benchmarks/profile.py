"""Where a benchmarked endpoint spends its time, inside one process (issue 6).

    python -m tests.benchmarks.profile --database-url URL [--requests 2000] [--html FILE] [--show-all] NAME

NAME picks scenarios of tests/benchmarks/scenarios.py by a part of their name ("charts/search",
"compatibilities?extended"); the database must hold the benchmark catalog built with the same
--products/--items/--compatibilities (`python -m tests.benchmarks.run --database-url URL` leaves
one). The app is built as wsgi.py builds it and called through its WSGI entry point with
prepared environs, as gunicorn's worker calls it, so the figures are the service's own time
without the network and the load generator. Prints the mean time per request, then pyinstrument's
call tree of the same requests (or writes it as HTML).

For a profile under real load instead, attach py-spy to a gunicorn worker while the benchmark runs:
`py-spy record --pid WORKER_PID --duration 10 --output flame.svg`.
"""
import argparse
import io
import json
import time

from pyinstrument import Profiler
from werkzeug.test import EnvironBuilder

from app import create_app
from tests.benchmarks import scenarios
from tests.benchmarks.catalog import Catalog


def environs(scenario, app=None):
    """Prepared WSGI environs of the scenario's pool, with the body kept aside to be rewound. A pool
    built from the server's answers (the 304 list's ETags) is asked of `app` in-process."""
    if scenario.prepare is not None and app is not None:
        scenario.requests = scenario.prepare(None, _in_process(app))
    prepared = []
    for method, path, body, *extra in scenario.requests:
        headers = {"Authorization": f"Bearer {scenario.token}"} if scenario.token else {}
        headers.update(extra[0] if extra else {})
        data = b"" if body is None else json.dumps(body).encode()
        builder = EnvironBuilder(path=path, method=method, headers=headers, data=data,
                                 content_type="application/json" if body is not None else None)
        prepared.append((builder.get_environ(), data))
    return prepared


def _in_process(app):
    """run.request()'s signature, answered by the WSGI app instead of a server."""
    def request(port, method, path, body=None, token="", headers=None, with_headers=False):
        headers = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
        data = b"" if body is None else json.dumps(body).encode()
        environ = EnvironBuilder(path=path, method=method, headers=headers, data=data).get_environ()
        answer = {}
        chunks = app(environ, lambda s, h, exc_info=None: answer.update(status=s, headers=dict(h)))
        text = b"".join(chunks).decode()
        status = int(answer["status"][:3])
        return (status, text, answer["headers"]) if with_headers else (status, text)
    return request


def call(app, environ, data):
    environ = {**environ, "wsgi.input": io.BytesIO(data)}
    status = []
    body = b"".join(app(environ, lambda s, h, exc_info=None: status.append(s)))
    return int(status[0][:3]), body


def timed(app, prepared, count):
    started = time.perf_counter()
    for n in range(count):
        call(app, *prepared[n % len(prepared)])
    return (time.perf_counter() - started) / count * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="a part of the scenario's name, e.g. charts/search")
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--compatibilities", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--html", help="write pyinstrument's HTML report here instead of the text tree")
    parser.add_argument("--show-all", action="store_true", help="keep library frames in the text tree")
    args = parser.parse_args()

    catalog = Catalog(args.products, args.items, args.compatibilities)
    selected = [s for s in scenarios.all_scenarios(catalog) if args.name in s.name and s.name != "GET /health"]
    if not selected:
        raise SystemExit(f"no scenario's name contains {args.name!r}")
    if any(s.unique for s in selected):
        raise SystemExit("write scenarios change the catalog: profile them through the HTTP benchmark")
    app = create_app({"DATABASE_URL": args.database_url, "RATELIMIT_ENABLED": False}).wsgi_app

    for scenario in [scenarios.health(), *selected]:
        prepared = environs(scenario, app)
        status, body = call(app, *prepared[0])
        problem = scenario.check(status, body.decode())
        if problem:
            raise SystemExit(f"{scenario.name}: {problem}")
        timed(app, prepared, min(200, args.requests))  # warm caches and prepared queries
        mean = timed(app, prepared, args.requests)
        print(f"{scenario.name}: {mean:.3f} ms per request in-process ({args.requests} requests)")
        if scenario in selected:
            profiler = Profiler(interval=0.0001)
            with profiler:
                timed(app, prepared, args.requests)
            if args.html:
                with open(args.html, "w", encoding="utf-8") as f:
                    f.write(profiler.output_html())
                print(f"pyinstrument report: {args.html}")
            else:
                print(profiler.output_text(unicode=True, color=False, show_all=args.show_all))


if __name__ == "__main__":
    main()
