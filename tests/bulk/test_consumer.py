"""What a consumer keeps between items: the catalog reads its task slices share for a while, and
(PostgreSQL) commits that do not wait for the disk, in its own transactions only."""
import pytest

from app.config import SERVER_TIMEOUTS
from app.db import db, is_postgres
from app.services.bulk import queries, queue
from tests.bulk.conftest import job, results, upload

ROWS = [{"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}]}]


def test_a_consumers_slices_share_their_catalog_reads_until_these_age(app):
    jobs = app.extensions["bulk_queue"]
    first = jobs._catalog_reads(clock=lambda: 1000.0)
    assert jobs._catalog_reads(clock=lambda: 1000.0 + queue.CATALOG_READS_S) is first
    renewed = jobs._catalog_reads(clock=lambda: 1000.1 + queue.CATALOG_READS_S)
    assert renewed is not first
    assert jobs._catalog_reads(clock=lambda: 1000.2 + queue.CATALOG_READS_S) is renewed


def _durability():
    """What the current transaction's COMMIT waits for, as the database says it."""
    if is_postgres():
        return db.execute_sql("SHOW synchronous_commit").fetchone()[0]
    return db.execute_sql("PRAGMA synchronous").fetchone()[0]


def test_a_consumers_transactions_alone_commit_without_waiting_for_the_disk(app, client, work, run_db,
                                                                             monkeypatch):
    seen = []
    record_row = queries.record_row

    def recording(job_id, result):
        seen.append(_durability())
        return record_row(job_id, result)

    monkeypatch.setattr(queries, "record_row", recording)
    job_id = upload(client, ROWS).get_json()["id"]
    work()
    assert job(client, job_id)["status"] == "DONE" and results(client, job_id)[0]["status"] == "OK"
    at_rest = run_db(_durability)
    if app.config["DATABASE_URL"].startswith("postgres"):
        assert seen == ["off"] and at_rest == "on"  # SET LOCAL: the pooled connection is the server's again
    else:
        assert seen == [at_rest]  # SQLite's own setting, untouched


def test_a_consumers_transactions_keep_a_requests_idle_timeout_and_lift_the_others(app, client, work, monkeypatch):
    """A consumer frozen mid-batch holds its items' locks, and N4's pages, as a frozen request would:
    the server ends its transaction after DB_IDLE_IN_TRANSACTION_TIMEOUT_MS; its statements, as an
    operator command's, run without the request's statement and lock timeouts."""
    if not app.config["DATABASE_URL"].startswith("postgres"):
        pytest.skip("PostgreSQL's timeouts")
    seen = []
    record_row = queries.record_row

    def recording(job_id, result):
        seen.append(tuple(db.execute_sql(f"SHOW {name}").fetchone()[0] for name in SERVER_TIMEOUTS))
        return record_row(job_id, result)

    monkeypatch.setattr(queries, "record_row", recording)
    job_id = upload(client, ROWS).get_json()["id"]
    work()
    assert job(client, job_id)["status"] == "DONE"
    assert seen == [("0", "0", "10s")]  # statement, lock, idle in transaction (the setting's default)
