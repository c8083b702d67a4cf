"""A seller's jobs: storing one (J1) with its rows in one transaction, reading them (J2 to J4) and
cancelling one (J5)."""
import json
import logging
import uuid
from dataclasses import dataclass

import orjson

from app.db import is_postgres, lock_rows, write_transaction
from app.errors import ApiError
from app.models import BulkItem, BulkJob, BulkRow, CompatibilityRule, Domain, User
from app.models.base import utcnow
from app.models.bulk import CANCELLED, IN_FLIGHT, PENDING
from app.services.bulk import queries
from app.services.bulk.bodies import read_rows
from app.services.bundle.sql import insert_rows
from app.services.notifications import outbox
from app.services.paging import page_of

log = logging.getLogger("app.bulk")
BATCH = 2000
ROW_FIELDS = ("job_id", "row", "item_id", "body")


@dataclass(frozen=True)
class BulkLimits:
    max_rows: int
    max_jobs_in_flight: int

    @classmethod
    def from_config(cls, config):
        return cls(config["BULK_MAX_ROWS"], config["BULK_MAX_JOBS_IN_FLIGHT"])


@dataclass(frozen=True)
class Submitted:
    job: BulkJob
    replayed: bool  # an Idempotency-Key seen before with the same body: the job it made then


def vehicle_attribute_ids():
    """The attribute ids of every domain items can be made compatible with: a CSV's family columns."""
    domains = CompatibilityRule.select(CompatibilityRule.compatible_domain).distinct()
    return {a["id"] for (attributes,) in Domain.select(Domain.attributes).where(Domain.id.in_(domains)).tuples()
            for a in attributes or () if isinstance(a, dict) and a.get("id")}


def submit_job(body, seller_id, client_id, request_id, idempotency_key, limits, queue):
    """J1: the job and its rows in one transaction, then on the `queue`; or the job an earlier request
    with the same key and body made. Closes the body's file."""
    with body.file:
        return _submit(body, seller_id, client_id, request_id, idempotency_key, limits, queue)


def _submit(body, seller_id, client_id, request_id, idempotency_key, limits, queue):
    if idempotency_key is not None and not 0 < len(idempotency_key) <= 255:
        raise ApiError("validation_error", "Idempotency-Key: send 1 to 255 characters",
                       [{"code": "invalid", "message": "1 to 255 characters", "field": "Idempotency-Key"}])
    with write_transaction():
        # One seller's submissions one after the other: the in-flight count and the key hold.
        lock_rows(User.select(User.id).where(User.id == seller_id))
        if idempotency_key is not None:
            earlier = BulkJob.get_or_none(BulkJob.seller_id == seller_id, BulkJob.idempotency_key == idempotency_key)
            if earlier is not None:
                if earlier.body_hash != body.sha256:
                    raise ApiError("idempotency_conflict",
                                   f"Idempotency-Key {idempotency_key!r} was used for another body (job {earlier.id}); "
                                   "send a new key for a new job")
                return Submitted(earlier, True)
        in_flight = BulkJob.select().where(BulkJob.seller_id == seller_id, BulkJob.status.in_(IN_FLIGHT)).count()
        if in_flight >= limits.max_jobs_in_flight:
            raise ApiError("too_many_jobs", f"You have {in_flight} jobs queued or running, at most "
                           f"{limits.max_jobs_in_flight} (BULK_MAX_JOBS_IN_FLIGHT); retry when one has finished",
                           headers={"Retry-After": "30"})
        job = BulkJob(id=str(uuid.uuid4()), seller_id=seller_id, client_id=client_id, request_id=request_id,
                      idempotency_key=idempotency_key, body_hash=body.sha256)
        items, batch = {}, []
        for number, item_id, row in read_rows(body, limits.max_rows, vehicle_attribute_ids()):
            items.setdefault(item_id, number)
            batch.append((job.id, number, item_id, _json_text(row)))
            if len(batch) >= BATCH:
                insert_rows(BulkRow, ROW_FIELDS, batch)
                job.rows_total += len(batch)
                batch = []
        insert_rows(BulkRow, ROW_FIELDS, batch)
        job.rows_total += len(batch)
        insert_rows(BulkItem, ("job_id", "position", "item_id"),
                    [(job.id, position, item_id) for item_id, position in items.items()])
        job.save(force_insert=True)
    log.info("bulk job %s stored: %d rows, %d items (seller %s)", job.id, job.rows_total, len(items), seller_id)
    try:
        queue.enqueue(job.id)
    except Exception as exc:  # the queue is down: the job is stored, and the sweep will find it
        log.warning("bulk job %s could not be put on the queue (the sweep will): %s: %s", job.id,
                    type(exc).__name__, exc)
    return Submitted(job, False)


def _json_text(row):
    try:
        return orjson.dumps(row).decode()
    except TypeError:  # an integer past 64 bits, which the schemas let through in fields they ignore
        return json.dumps(row, ensure_ascii=False)


def require_job(job_id, caller_id):
    job = queries.job(job_id)
    if job is None:
        raise ApiError("bulk_job_not_found", f"Bulk job {job_id} does not exist")
    if job.seller_id != caller_id:
        raise ApiError("forbidden", f"Bulk job {job_id} belongs to another seller: only its seller may read it")
    return job


def get_job(job_id, caller_id):
    """J2."""
    return require_job(job_id, caller_id)


def list_results(job_id, caller_id, status, limit, offset):
    """J3: the rows' results in row order."""
    require_job(job_id, caller_id)
    query = BulkRow.select().where(BulkRow.job_id == job_id)
    if status:
        query = query.where(BulkRow.status == status)
    return page_of(query.order_by(BulkRow.row), offset, limit)


def list_jobs(caller_id, status, limit, offset):
    """J4: the caller's jobs, newest first."""
    query = BulkJob.select().where(BulkJob.seller_id == caller_id)
    if status:
        query = query.where(BulkJob.status == status)
    return page_of(query.order_by(BulkJob.date_created.desc(), BulkJob.id.desc()), offset, limit)


def cancel_job(job_id, caller_id):
    """J5: items not started are CANCELLED with their rows; an item a consumer holds finishes."""
    with write_transaction():
        require_job(job_id, caller_id)
        job = lock_rows(BulkJob.select().where(BulkJob.id == job_id))[0]
        if job.status not in IN_FLIGHT:
            raise ApiError("bulk_job_finished", f"Bulk job {job_id} is {job.status}: only a QUEUED or RUNNING job "
                           "can be cancelled")
        pending = BulkItem.select(BulkItem.position, BulkItem.item_id).where(
            BulkItem.job_id == job_id, BulkItem.status == PENDING)
        if is_postgres():
            pending = pending.for_update("FOR UPDATE SKIP LOCKED")  # an item being applied is left to finish
        units = list(pending.tuples())
        for start in range(0, len(units), 500):
            chunk = units[start:start + 500]
            BulkItem.update(status=CANCELLED).where(
                BulkItem.job_id == job_id, BulkItem.position.in_([p for p, _ in chunk])).execute()
            BulkRow.update(status=CANCELLED).where(
                BulkRow.job_id == job_id, BulkRow.status == PENDING,
                BulkRow.item_id.in_([i for _, i in chunk])).execute()
        job.status, job.date_finished = CANCELLED, utcnow()
        BulkJob.update(status=job.status, date_finished=job.date_finished).where(BulkJob.id == job_id).execute()
        outbox.job_finished(job_id, job.seller_id)
    log.info("bulk job %s cancelled: %d items not started", job_id, len(units))
    return job
