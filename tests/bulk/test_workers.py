"""Real `flask --app wsgi worker` processes: one killed with SIGKILL mid-job and another finishing the
job with every row applied once; two sharing one job's items."""
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from app.models import BulkJob, CompatibilityChange
from app.services.bundle import import_bundle
from tests.bulk.conftest import job, results, upload
from tests.bundles import item
from tests.gunicorn_util import ROOT

pytestmark = pytest.mark.slow
# Enough that a worker frozen a poll (20 ms) after its first item is still mid-job on a fast host: one
# run here found a job of 30 items done by then.
ITEMS = [f"MLA5{n:03d}" for n in range(150)]
GOL = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Volkswagen"},
                                                        {"id": "MODEL", "value_name": "Gol"}]}
ROWS = [{"item_id": item_id, "action": "ADD", "products_families": [GOL]} for item_id in ITEMS]
# Enough items that the job outlasts several of a task's slices (BULK_SLICE_S=1) even one item per
# transaction on a fast host, so that the second worker has successor tasks to take: one run here found a
# job of 300 items done by one worker.
SHARED_ITEMS = [f"MLA6{n:04d}" for n in range(2000)]
SHARED_ROWS = [{"item_id": item_id, "action": "ADD", "products_families": [GOL]} for item_id in SHARED_ITEMS]


class Worker:
    """A worker process; its log lines collected as they come."""

    def __init__(self, app, **settings):
        env = {**os.environ, "DATABASE_URL": app.config["DATABASE_URL"], "QUEUE_NAME": app.config["QUEUE_NAME"],
               "LOG_LEVEL": "DEBUG", "BULK_SLICE_S": "1", "PYTHONDONTWRITEBYTECODE": "1",
               **{k: str(v) for k, v in settings.items()}}
        self.process = subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "worker"], cwd=ROOT,
                                        env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.lines, self.ready = [], threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def wait_ready(self):
        assert self.ready.wait(60), "".join(self.lines)
        return self

    def _read(self):
        for line in self.process.stderr:
            self.lines.append(line)
            if "consumer started" in line:
                self.ready.set()

    def slices(self):
        return sum(int(m) for line in self.lines for m in re.findall(r"(\d+) item\(s\) applied", line))

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.wait(30)
        self.reader.join(30)  # every line it wrote, read
        self.process.stderr.close()


@pytest.fixture
def many_items(run_db):
    run_db(import_bundle, {"items": [item(item_id, "MLA1747", "MLA-BRAKE_PADS")
                                     for item_id in ITEMS + SHARED_ITEMS]})


def wait_for(condition, timeout=120):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def assert_applied_once(client, run_db, job_id, items=ITEMS):
    finished = job(client, job_id)
    assert finished["status"] == "DONE", finished
    assert finished["rows"] == {"total": len(items), "done": len(items), "ok": len(items), "error": 0}
    assert finished["compatibilities"]["created"] == 6 * len(items)
    assert {r["status"] for r in results(client, job_id)} == {"OK"}
    created = run_db(lambda: CompatibilityChange.select().where(CompatibilityChange.job_id == job_id).count())
    assert created == 6 * len(items)


def test_a_worker_killed_mid_job_leaves_it_to_another_with_every_row_applied_once(app, client, run_db,
                                                                                   many_items):
    first = Worker(app, BULK_BATCH_MS=10).wait_ready()  # a few items per transaction: the job lasts a while
    job_id = upload(client, ROWS).get_json()["id"]
    done = lambda: run_db(lambda: BulkJob.get_by_id(job_id).rows_done)  # noqa: E731
    wait_for(lambda: done() > 0)
    # Frozen at once, most likely inside its next write transaction (of BULK_BATCH_MS), then killed.
    first.process.send_signal(signal.SIGSTOP)
    first.stop(signal.SIGKILL)
    assert 0 < done() < len(ITEMS), "the job finished before the worker was killed"
    # The second worker's sweep at start puts the job back at once (a stale job, with this setting).
    second = Worker(app, BULK_STALE_AFTER_S=0).wait_ready()
    try:
        wait_for(lambda: job(client, job_id)["status"] == "DONE")
        # A slice's line is logged after the commit that finished the job: stopped at once (SIGTERM)
        # before it, the worker would seem to have applied nothing.
        wait_for(lambda: second.slices() > 0, timeout=10)
    finally:
        second.stop()
    assert_applied_once(client, run_db, job_id)
    assert second.slices() > 0


def test_two_workers_share_one_jobs_items_without_conflict(app, client, run_db, many_items):
    workers = [Worker(app), Worker(app)]
    for worker in workers:
        worker.wait_ready()
    try:
        job_id = upload(client, SHARED_ROWS).get_json()["id"]
        wait_for(lambda: job(client, job_id)["status"] == "DONE")
        wait_for(lambda: sum(worker.slices() for worker in workers) == len(SHARED_ITEMS), timeout=10)  # see above
    finally:
        for worker in workers:
            worker.stop()
    assert_applied_once(client, run_db, job_id, SHARED_ITEMS)
    shares = [worker.slices() for worker in workers]
    assert all(shares), shares
    assert sum(worker.slices() for worker in workers) == len(SHARED_ITEMS)
    assert not any("Traceback" in line for worker in workers for line in worker.lines)
