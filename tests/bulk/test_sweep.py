"""The sweep: a job whose enqueue was lost is found and run, one found stale too often is FAILED, and
finished jobs past their retention are deleted."""
import datetime

from app.models import BulkJob, BulkRow
from app.models.base import utcnow
from app.services.bulk import sweep
from tests.bulk.conftest import AUTH, job, results, upload

ROWS = [{"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}]}]


def test_a_job_whose_enqueue_was_lost_is_put_back_by_the_sweep_and_done(app, client, work, run_db, monkeypatch):
    queue = app.extensions["bulk_queue"]

    def down(job_id):
        raise ConnectionError("the queue is down")

    monkeypatch.setattr(queue, "enqueue", down)
    response = upload(client, ROWS)
    assert response.status_code == 202  # stored: the answer does not depend on the queue
    monkeypatch.undo()
    assert work() == 0
    job_id = response.get_json()["id"]
    assert run_db(sweep, 60, 5, 30, queue.enqueue) == []  # not stale yet
    assert run_db(sweep, 0, 5, 30, queue.enqueue) == [job_id]
    work()
    assert job(client, job_id)["status"] == "DONE" and results(client, job_id)[0]["status"] == "OK"


def test_a_job_found_stale_max_attempts_times_is_failed_and_its_rows_cancelled(app, client, run_db):
    job_id = upload(client, ROWS).get_json()["id"]
    put_back = []
    for _ in range(2):
        run_db(sweep, 0, 2, 30, put_back.append)
    assert put_back == [job_id]
    failed = job(client, job_id)
    assert failed["status"] == "FAILED" and "date_finished" in failed
    assert [r["status"] for r in results(client, job_id)] == ["CANCELLED"]


def test_the_sweep_deletes_finished_jobs_past_their_retention(app, client, work, run_db):
    job_id = upload(client, ROWS).get_json()["id"]
    work()
    run_db(lambda: BulkJob.update(date_finished=utcnow() - datetime.timedelta(days=31)).where(
        BulkJob.id == job_id).execute())
    run_db(sweep, 60, 5, 30, lambda _: None)
    assert run_db(lambda: (BulkJob.select().count(), BulkRow.select().count())) == (0, 0)
    assert client.get(f"/compatibilities/bulk/{job_id}", headers=AUTH).status_code == 404
