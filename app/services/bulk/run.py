"""What a consumer does with a job: claim its items one at a time, each applied with its results
in a savepoint of a write transaction that takes the next items for up to BULK_BATCH_MS (a consumer
killed mid-transaction leaves its items unapplied and unclaimed), and the sweep that puts back on the
queue a job whose enqueue was lost or whose consumer died."""
import contextlib
import datetime
import fcntl
import logging
import time

from peewee import DatabaseError

from app.db import connection, db, is_postgres, write_transaction
from app.models import BulkItem, BulkJob, BulkRow
from app.models.base import utcnow
from app.models.bulk import CANCELLED, DONE, ERROR, FAILED, IN_FLIGHT, OK, PENDING, QUEUED, RUNNING
from app.services.bulk import queries
from app.services.bulk.apply import RowResult, apply_item
from app.services.compat.context import CatalogReads
from app.services.notifications import outbox

log = logging.getLogger("app.bulk")
TURN_S = 0.001
# At most this many items in one write transaction (BULK_BATCH_MS bounds its time): its commit (a flush
# of the log on PostgreSQL) and the job's counts are paid once for them. An item's lock is held until
# the transaction's end, at most a batch's time past its own rows.
BATCH_ITEMS = 50


def start_job(job_id):
    """The job once it is RUNNING (QUEUED ones start here), or None when it is no longer in flight."""
    with write_transaction():
        now = utcnow()
        started = BulkJob.update(status=RUNNING, date_started=now, heartbeat=now).where(
            BulkJob.id == job_id, BulkJob.status == QUEUED).execute()
        job = BulkJob.get_or_none(BulkJob.id == job_id)
    if job is None or job.status not in IN_FLIGHT:
        return None
    if started:
        log.info("bulk job %s started: %d rows (seller %s)", job.id, job.rows_total, job.seller_id)
    return job


def pending_items(job_id, at_most):
    return (BulkItem.select().where(BulkItem.job_id == job_id, BulkItem.status == PENDING)
            .limit(at_most).count())


def work_on_job(job_id, limits, slice_s, enqueue_successor, clock=time.monotonic, batch_s=0.0, reads=None):
    """One task's share of a job: items for up to `slice_s` seconds, in write transactions of about
    `batch_s`, reading the catalog through `reads` (CatalogReads; by default, afresh). A successor is
    queued first when another item waits, so that other consumers share the job and other jobs get
    their turn."""
    job = start_job(job_id)
    if job is None:
        return
    if pending_items(job_id, 2) > 1:
        enqueue_successor()
    deadline, applied, reads = clock() + slice_s, 0, reads or CatalogReads()
    while clock() < deadline and (batch := apply_next_items(job, limits, reads, clock, batch_s)):
        applied += batch
    log.debug("bulk job %s: %d item(s) applied in this slice", job_id, applied)


@contextlib.contextmanager
def _one_writer_at_a_time():
    """On SQLite, consumers take turns on a lock file beside the database before their write
    transaction: one waiting in SQLite's busy handler sleeps in ever longer steps and misses most of
    the moments the other commits; one waiting on the file wakes when it is released. PostgreSQL's
    consumers write side by side (each holds only its items)."""
    if is_postgres():
        yield
        return
    with open(f"{db.obj.database}-bulk.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    # The lock is not fair: a moment's pause lets a consumer that waits for it take it.
    time.sleep(TURN_S)


def apply_next_items(job, limits, reads=None, clock=time.monotonic, batch_s=0.0, at_most=BATCH_ITEMS):
    """Claims the job's next items one after another and applies each one's rows, all in one write
    transaction that ends after `batch_s` or `at_most` items; answers how many were applied (0: none
    was left)."""
    counts = _Counts()
    try:
        with _one_writer_at_a_time(), write_transaction():
            queries.commit_without_waiting_for_disk()
            until = clock() + batch_s
            while counts.items < at_most and (unit := queries.claim_next_item(job.id)) is not None:
                counts.add(_apply_unit(job, unit, limits, reads))
                if clock() >= until:
                    break
            if counts.items:
                # Last in the transaction: on PostgreSQL the job's row stays locked only until the commit.
                queries.count_item(job.id, counts.rows, counts.ok, counts.created, counts.updated, counts.deleted,
                                   utcnow())
            # With nothing left to claim the job may still be RUNNING (the sweep put it back).
            finished = _finish_if_done(job.id)
    except DatabaseError:
        log.exception("bulk job %s: the database failed; its items are left for a later try", job.id)
        raise
    if finished:
        _log_end(job.id)
    return counts.items


class _Counts:
    """What the items of one transaction add to the job's counts."""

    def __init__(self):
        self.items = self.rows = self.ok = self.created = self.updated = self.deleted = 0

    def add(self, results):
        self.items += 1
        self.rows += len(results)
        self.ok += sum(1 for r in results if r.status == OK)
        self.created += sum(r.created for r in results)
        self.updated += sum(r.updated for r in results)
        self.deleted += sum(r.deleted for r in results)


def _apply_unit(job, unit, limits, reads):
    """The item's row results, recorded with its writes."""
    rows = queries.pending_rows(job.id, unit.item_id)
    try:
        results = apply_item(job, unit.item_id, rows, limits, reads)
    except DatabaseError:
        raise
    except Exception:  # a defect, not the data: the item's rows say so, and the job goes on
        log.exception("bulk job %s: item %s failed", job.id, unit.item_id)
        results = [RowResult(row.row, ERROR, error=_internal_error(job)) for row in rows]
    for result in results:
        queries.record_row(job.id, result)
    queries.item_done(job.id, unit.position, DONE)
    return results


def _internal_error(job):
    return {"message": f"Internal server error; quote bulk job {job.id} when reporting it", "error": "internal_error",
            "status": 500, "cause": []}


def _finish_if_done(job_id):
    """DONE once no item waits. Run after the job's row is updated, so that on PostgreSQL two consumers
    finishing the last two items see each other's commit (the second waited for the first's lock)."""
    if queries.has_pending_items(job_id):
        return False
    finished = BulkJob.update(status=DONE, date_finished=utcnow()).where(
        BulkJob.id == job_id, BulkJob.status == RUNNING).execute() == 1
    if finished:
        outbox.job_finished(job_id, BulkJob.get_by_id(job_id).seller_id)
    return finished


def _log_end(job_id):
    job = BulkJob.get_by_id(job_id)
    took = (job.date_finished - job.date_started).total_seconds() if job.date_started else 0.0
    log.info("bulk job %s done in %.1f s: %d rows, %d ok, %d error; compatibilities %d created, %d updated, "
             "%d deleted", job.id, took, job.rows_total, job.rows_ok, job.rows_error, job.created, job.updated,
             job.deleted)


def sweep(stale_after_s, max_attempts, retention_days, enqueue, now=None):
    """Puts back on the queue each job in flight that showed no life for `stale_after_s` (its enqueue
    lost, its consumer dead), FAILED after `max_attempts` such finds; deletes the jobs finished more
    than `retention_days` ago. Safe on several consumers at once: a job is taken by a compare-and-set
    of its heartbeat. Answers the ids put back."""
    now = now or utcnow()
    stale = now - datetime.timedelta(seconds=stale_after_s)
    put_back = []
    with connection():
        candidates = list(BulkJob.select(BulkJob.id, BulkJob.heartbeat, BulkJob.attempts).where(
            BulkJob.status.in_(IN_FLIGHT), BulkJob.heartbeat <= stale).tuples())
        for job_id, heartbeat, attempts in candidates:
            with write_transaction():
                taken = BulkJob.update(heartbeat=now, attempts=attempts + 1).where(
                    BulkJob.id == job_id, BulkJob.heartbeat == heartbeat).execute()
                if taken and attempts + 1 >= max_attempts:
                    _fail(job_id, attempts + 1)
                    continue
            if taken:
                try:
                    enqueue(job_id)
                    put_back.append(job_id)
                except Exception as exc:  # the queue is down: the next sweep tries again
                    log.warning("bulk job %s could not be put on the queue: %s", job_id, exc)
        _purge(now - datetime.timedelta(days=retention_days))
    if put_back:
        log.info("bulk sweep: %d job(s) put back on the queue: %s", len(put_back), ", ".join(put_back))
    return put_back


def _fail(job_id, attempts):
    items = [i for (i,) in BulkItem.select(BulkItem.item_id).where(
        BulkItem.job_id == job_id, BulkItem.status == PENDING).tuples()]
    BulkItem.update(status=CANCELLED).where(BulkItem.job_id == job_id, BulkItem.status == PENDING).execute()
    for start in range(0, len(items), 500):
        BulkRow.update(status=CANCELLED).where(BulkRow.job_id == job_id, BulkRow.status == PENDING,
                                               BulkRow.item_id.in_(items[start:start + 500])).execute()
    BulkJob.update(status=FAILED, date_finished=utcnow()).where(BulkJob.id == job_id).execute()
    outbox.job_finished(job_id, BulkJob.get_by_id(job_id).seller_id)
    log.error("bulk job %s failed: found without progress %d times; %d items not applied (CANCELLED)",
              job_id, attempts, len(items))


def _purge(cutoff):
    old = [j for (j,) in BulkJob.select(BulkJob.id).where(BulkJob.status.not_in(IN_FLIGHT),
                                                         BulkJob.date_finished < cutoff).tuples()]
    for start in range(0, len(old), 100):
        chunk = old[start:start + 100]
        with write_transaction():
            BulkRow.delete().where(BulkRow.job_id.in_(chunk)).execute()
            BulkItem.delete().where(BulkItem.job_id.in_(chunk)).execute()
            BulkJob.delete().where(BulkJob.id.in_(chunk)).execute()

