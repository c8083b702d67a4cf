"""Bulk jobs (issue 32) against a real gunicorn (2 web workers) and `flask --app wsgi worker` processes
(2), on a fresh database:

- a CSV job of `--items` items, each a family of 100 vehicles (1,000,000 compatibilities at the
  default 10,000): its time, with the time a 1,000,000-compatibility job would take at that rate;
- the item read's p50 (GET /items/{id}) while the job runs, against its p50 at rest, both read at the
  same pace (an item read and J2, then a pause);
- J1's answer to an upload of `--upload-mb` MB (CSV, and JSON), and J2's p50.

    python -m tests.benchmarks.bench_bulk [--database-url URL] [--items 10000] [--upload-mb 10]

--database-url names an empty database (default: a temporary SQLite file). Each row prints PASS or
MISS against the issue's target; at a reduced scale, the job's row is judged on its projection.
"""
import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from app.data.demo import DEMO_TOKENS, build_demo_bundle
from tests.gunicorn_util import ROOT, Gunicorn, app_env, flask_cli

SELLER = 1001
TOKEN = DEMO_TOKENS[SELLER]
AUTH = {"Authorization": "Bearer " + TOKEN}
FAMILY, PARENTS = 100, 10  # a block: 10 model years of 10 versions, selected by BRAND + MODEL
BLOCKS = 100
PRODUCT_BASE, ITEM_BASE = 7_100_000_000, 8_100_000_000
# Between two probes (an item read and J2) while the job runs: buyers' reads at a steady pace. Probes
# sent back to back would keep one of the host's cores busy on their own and measure the contention
# they make, not the job's effect on a read.
PROBE_PAUSE_S = 0.02
TARGETS = {"job": 60.0, "ratio": 2.0, "upload": 1.0, "j2": 2.0}


def catalog(items):
    """The demo bundle plus BLOCKS blocks of 100 child vehicles and `items` brake-pad items of 1001."""
    bundle = build_demo_bundle()
    products = []
    for block in range(BLOCKS):
        attributes = [{"id": "BRAND", "value_id": f"QB{block % 20}", "value_name": f"Marca {block % 20}"},
                      {"id": "MODEL", "value_id": f"QM{block}", "value_name": f"Modelo {block}"}]
        for year in range(PARENTS):
            parent = f"MLA{PRODUCT_BASE + block * 1000 + year * 100}"
            products.append({"id": parent, "domain_id": "MLA-CARS_AND_VANS", "site_id": "MLA", "name": parent,
                             "attributes": attributes})
            for version in range(1, FAMILY // PARENTS + 1):
                products.append({"id": f"MLA{PRODUCT_BASE + block * 1000 + year * 100 + version}",
                                 "domain_id": "MLA-CARS_AND_VANS", "site_id": "MLA", "name": f"v{version}",
                                 "parent_id": parent, "attributes": attributes + [
                                     {"id": "VEHICLE_YEAR", "value_id": str(2000 + year),
                                      "value_name": str(2000 + year)}]})
    bundle["products"] = bundle.get("products", []) + products
    bundle["items"] = bundle.get("items", []) + [
        {"id": f"MLA{ITEM_BASE + n}", "site_id": "MLA", "seller_id": SELLER, "category_id": "MLA1747",
         "domain_id": "MLA-BRAKE_PADS", "status": "active", "price": 1000.0, "currency_id": "ARS",
         "title": f"Pastillas {n}"} for n in range(items)]
    return bundle


def job_csv(items):
    return "item_id,action,BRAND,MODEL\n" + "".join(
        f"MLA{ITEM_BASE + n},ADD,QB{(n % BLOCKS) % 20},QM{n % BLOCKS}\n" for n in range(items))


def upload_csv(megabytes, items):
    """About `megabytes` MB of CSV: one line per item and vehicle, each with a note."""
    note = "Verificar la medida del disco antes de comprar; solo modelos con ABS"
    lines, size, n = ["item_id,action,product_id,note\n"], 0, 0
    while size < megabytes * 1_000_000:
        line = (f"MLA{ITEM_BASE + (n // FAMILY) % items},ADD,"
                f"MLA{PRODUCT_BASE + (n % BLOCKS) * 1000 + (n % PARENTS) * 100 + 1 + n % 10},{note}\n")
        lines.append(line)
        size += len(line)
        n += 1
    return "".join(lines), n


def upload_json(megabytes, items):
    rows, size, n = [], 0, 0
    while size < megabytes * 1_000_000:
        row = {"item_id": f"MLA{ITEM_BASE + n % items}", "action": "ADD", "products": [
            {"id": f"MLA{PRODUCT_BASE + (n % BLOCKS) * 1000 + 100 * (k % PARENTS) + 1 + k // PARENTS}"}
            for k in range(40)], "note": "Verificar la medida antes de comprar"}
        size += len(json.dumps(row)) + 2
        rows.append(row)
        n += 1
    return json.dumps({"rows": rows}), n


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None, content_type=None):
        headers = dict(AUTH)
        if content_type:
            headers["Content-Type"] = content_type
        started = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        took = (time.perf_counter() - started) * 1000
        return response.status, json.loads(data) if data else None, took


def p50_of(client, path, count):
    return statistics.median(client.call("GET", path)[2] for _ in range(count))


def probes(client, probe, job_path, done):
    """An item read and J2, then PROBE_PAUSE_S, until `done(J2's answer, reads so far)`: (the reads'
    times, the last answer)."""
    reads = []
    while True:
        reads.append(client.call("GET", probe)[2])
        job = client.call("GET", job_path)[1]
        if done(job, len(reads)):
            return reads, job
        time.sleep(PROBE_PAUSE_S)


def verdict(value, target):
    return "PASS" if value <= target else "MISS"


def start_workers(url, count, directory):
    procs = []
    for n in range(count):
        with open(os.path.join(directory, f"worker{n}.err"), "wb") as err:
            procs.append(subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "worker"], cwd=ROOT,
                                          env=app_env(url, LOG_LEVEL="INFO"), stdout=subprocess.DEVNULL,
                                          stderr=err))
    return procs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url")
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--upload-mb", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="bench-bulk-")
    url = args.database_url or "sqlite:///" + os.path.join(directory, "b.db")
    started = time.perf_counter()
    flask_cli(url, "db", "upgrade")
    path = os.path.join(directory, "bundle.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(catalog(args.items), f)
    flask_cli(url, "catalog", "import", path)
    print(f"catalog: {BLOCKS * FAMILY:,} vehicles, {args.items:,} items ({time.perf_counter() - started:.0f} s)",
          flush=True)
    compatibilities = args.items * FAMILY
    with Gunicorn(url, directory, workers=2, BULK_MAX_JOBS_IN_FLIGHT=10) as server:
        client = Client(server.port)
        probe = f"/items/MLA{ITEM_BASE}"
        back_to_back = p50_of(client, probe, 300)  # also warms caches and prepared statements
        workers = start_workers(url, args.workers, directory)
        try:
            time.sleep(3)  # the workers' start
            status, body, j1_ms = client.call("POST", "/compatibilities/bulk", job_csv(args.items), "text/csv")
            assert status == 202, body
            job_path, job_started = f"/compatibilities/bulk/{body['id']}", time.perf_counter()
            reads, job = probes(client, probe, job_path, lambda job, _: job["status"] not in ("QUEUED", "RUNNING"))
            job_s = time.perf_counter() - job_started
            assert job["status"] == "DONE" and job["compatibilities"]["created"] == compatibilities, job
            during = statistics.median(reads)
            # The same probes at the same pace, the workers idle. Not reads back to back: paced, each
            # request also waits for the processes it passes through (client, web worker, database) to
            # be woken, which reads back to back never do, so they are no reference for paced ones.
            at_rest = statistics.median(probes(client, probe, job_path, lambda _, count: count == 300)[0])
            uploads = []
            for form, (text, lines), content_type in (("CSV", upload_csv(args.upload_mb, args.items), "text/csv"),
                                                      ("JSON", upload_json(args.upload_mb, args.items),
                                                       "application/json")):
                status, body, took = client.call("POST", "/compatibilities/bulk", text.encode(), content_type)
                assert status == 202, body
                client.call("DELETE", f"/compatibilities/bulk/{body['id']}")
                uploads.append((form, len(text) / 1e6, lines, took / 1000))
            j2_p50 = p50_of(client, job_path, 300)
        finally:
            for worker in workers:
                worker.terminate()
                worker.wait(30)
    projected = job_s * 1_000_000 / compatibilities
    print(f"database: {url.split(':')[0]}; {args.workers} workers beside 2 web workers")
    print(f"job of {compatibilities:,} compatibilities ({args.items:,} items x {FAMILY}, CSV): {job_s:.1f} s; "
          f"1,000,000 at that rate: {projected:.1f} s (target <= {TARGETS['job']:.0f} s) "
          f"{verdict(projected, TARGETS['job'])}")
    ratio = during / at_rest
    print(f"item read p50 during the job {during:.2f} ms, at rest {at_rest:.2f} ms: x{ratio:.2f} "
          f"(target <= {TARGETS['ratio']}) {verdict(ratio, TARGETS['ratio'])}; "
          f"at rest back to back, before the job: {back_to_back:.2f} ms")
    for form, megabytes, lines, seconds in uploads:
        print(f"J1 upload of {megabytes:.1f} MB {form} ({lines:,} lines/rows): {seconds:.2f} s "
              f"(target <= {TARGETS['upload']:.0f} s) {verdict(seconds, TARGETS['upload'])}")
    print(f"J1 of the job: {j1_ms:.0f} ms; J2 p50 {j2_p50:.2f} ms (target <= {TARGETS['j2']:.0f} ms) "
          f"{verdict(j2_p50, TARGETS['j2'])}")


if __name__ == "__main__":
    main()
