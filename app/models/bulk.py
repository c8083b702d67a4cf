"""Bulk compatibility jobs (extensions.md, J): the job, its rows with their results, and its items,
the units of work that consumers claim one at a time."""
from peewee import BigIntegerField, CharField, CompositeKey, IntegerField, TextField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow

# A job's and a row's states; an item (work unit) is PENDING, then DONE or CANCELLED.
QUEUED, RUNNING, DONE, CANCELLED, FAILED = "QUEUED", "RUNNING", "DONE", "CANCELLED", "FAILED"
PENDING, OK, ERROR = "PENDING", "OK", "ERROR"
IN_FLIGHT = (QUEUED, RUNNING)


class BulkJob(BaseModel):
    """One upload of a seller, with the counts J2 answers kept current by each item's transaction
    (never counted over its rows: J2 stays one primary-key read however large the job)."""
    id = CharField(primary_key=True, max_length=36)
    seller_id = BigIntegerField()
    client_id = CharField(max_length=64, null=True)
    request_id = CharField(max_length=128, null=True)
    status = CharField(max_length=10, default=QUEUED)
    idempotency_key = CharField(max_length=255, null=True)
    body_hash = CharField(max_length=64)
    date_created = DateTimeField(default=utcnow)
    date_started = DateTimeField(null=True)
    date_finished = DateTimeField(null=True)
    rows_total = IntegerField(default=0)
    rows_done = IntegerField(default=0)
    rows_ok = IntegerField(default=0)
    rows_error = IntegerField(default=0)
    created = IntegerField(default=0)
    updated = IntegerField(default=0)
    deleted = IntegerField(default=0)
    # When the job last showed life (stored, started, an item done, put on the queue): the sweep
    # puts a QUEUED or RUNNING job that shows none for BULK_STALE_AFTER_S on the queue again.
    heartbeat = DateTimeField(default=utcnow)
    attempts = IntegerField(default=0)  # times the sweep found it stale

    class Meta:
        indexes = (
            (("seller_id", "date_created"), False),  # J4, newest first; the in-flight count
            (("seller_id", "idempotency_key"), True),
            (("status", "heartbeat"), False),  # the sweep
        )


class BulkRow(BaseModel):
    """A row of the body (for CSV: the lines of one item) as validated at J1, and its result."""
    job_id = CharField(max_length=36)
    row = IntegerField()  # the row_result's `row`: position in `rows`, JSON Lines line, or CSV line
    item_id = CharField(max_length=40)
    # JSON text: written as J1 serialized it (no JSON column conversion per row), read by one item's consumer.
    body = TextField()
    status = CharField(max_length=10, default=PENDING)
    created = IntegerField(default=0)
    updated = IntegerField(default=0)
    deleted = IntegerField(default=0)
    error = JSONField(null=True)  # the error object, as the synchronous endpoint answers it

    class Meta:
        primary_key = CompositeKey("job_id", "row")
        indexes = (
            (("job_id", "item_id", "row"), False),  # an item's rows, in order
            (("job_id", "status", "row"), False),  # J3 with status=
        )


class BulkItem(BaseModel):
    """The rows of one item in one job, applied in one transaction: the unit a consumer claims.
    `position` is the item's first row."""
    job_id = CharField(max_length=36)
    position = IntegerField()
    item_id = CharField(max_length=40)
    status = CharField(max_length=10, default=PENDING)

    class Meta:
        primary_key = CompositeKey("job_id", "position")
        indexes = ((("job_id", "status", "position"), False),)
