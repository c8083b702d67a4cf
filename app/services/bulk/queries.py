"""The bulk jobs' hot statements, prepared once per dialect (app.prepared_sql.prepared): J2's read, and what a
consumer runs for every item; and the lock the queue's tables are created under."""
import json

from app.db import db, is_postgres
from app.models import AttributeScope, BulkItem, BulkJob, BulkRow, ProductAttribute
from app.models.bulk import PENDING
from app.prepared_rows import prepared_instances
from app.prepared_sql import execute_prepared, param


def job(job_id):
    """The job, every column, or None."""
    return next(iter(prepared_instances(BulkJob, "bulk_job_by_id", lambda: BulkJob.select().where(
        BulkJob.id == param("id")), {"id": job_id})), None)


def commit_without_waiting_for_disk():
    """PostgreSQL: the current transaction's COMMIT returns before its log is on disk, which spares a
    consumer a disk flush per item. A server crash may then lose the consumer's last commits, but
    each whole, with the items' results and statuses written in it: those items are PENDING again,
    and the job applies them once more, once (J2's counts may step back). Writes made by requests
    keep the server's setting."""
    if is_postgres():
        db.execute_sql("SET LOCAL synchronous_commit TO OFF")


# Any fixed number: the key of the advisory lock the queue's tables are created under.
QUEUE_TABLES_LOCK = 3_200_001


def create_queue_tables(conn, statements):
    """huey's CREATE TABLE IF NOT EXISTS statements on the psycopg connection `conn`, in one
    transaction that holds an advisory lock first. PostgreSQL does not make those statements safe
    against each other: of two processes that build the queue at once on a new database (two workers
    started together, two web workers' first uploads), one failed with a unique violation on
    pg_type."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (QUEUE_TABLES_LOCK,))
        for statement in statements:
            conn.execute(statement)


def _next_item():
    query = (BulkItem.select().where(BulkItem.job_id == param("job"), BulkItem.status == PENDING)
             .order_by(BulkItem.position).limit(1))
    # PostgreSQL: another consumer's item is skipped, not waited for; a dead consumer's lock went
    # with its connection. SQLite's write transaction already excludes every other consumer.
    return query.for_update("FOR UPDATE SKIP LOCKED") if is_postgres() else query


def claim_next_item(job_id):
    """The job's first PENDING item, locked until the transaction ends, or None."""
    return next(iter(prepared_instances(BulkItem, "bulk_next_item", _next_item, {"job": job_id})), None)


def pending_rows(job_id, item_id):
    """The item's rows still to apply, in row order: those of an item claimed PENDING are all PENDING
    (an item and its rows change status in one transaction). Selected by item alone, so that the
    (job, item, row) index serves it: with the status too, PostgreSQL chose the (job, status, row)
    index and read every pending row of the job for each item."""
    rows = prepared_instances(BulkRow, "bulk_item_rows", lambda: BulkRow.select().where(
        BulkRow.job_id == param("job"), BulkRow.item_id == param("item")).order_by(BulkRow.row),
        {"job": job_id, "item": item_id})
    return [row for row in rows if row.status == PENDING]


def has_pending_items(job_id):
    return execute_prepared("bulk_has_pending", lambda: BulkItem.select(BulkItem.position).where(
        BulkItem.job_id == param("job"), BulkItem.status == PENDING).limit(1), {"job": job_id}).fetchone() is not None


def item_done(job_id, position, status):
    execute_prepared("bulk_item_done", lambda: BulkItem.update(status=param("status")).where(
        BulkItem.job_id == param("job"), BulkItem.position == param("position")),
        {"job": job_id, "position": position, "status": status})


def record_row(job_id, result):
    execute_prepared("bulk_row_result", lambda: BulkRow.update(
        status=param("status"), created=param("created"), updated=param("updated"), deleted=param("deleted"),
        error=param("error")).where(BulkRow.job_id == param("job"), BulkRow.row == param("row")),
        {"job": job_id, "row": result.row, "status": result.status, "created": result.created,
         "updated": result.updated, "deleted": result.deleted, "error": _json(result.error)})


def _json(value):
    # SQLite: the text (peewee's JSONField wraps it in json(), a function a parameter cannot be).
    if value is None:
        return None
    return BulkRow.error.db_value(value) if is_postgres() else json.dumps(value)


def count_item(job_id, rows, ok, created, updated, deleted, now):
    """The job's counts after one item, and its heartbeat."""
    execute_prepared("bulk_job_counts", lambda: BulkJob.update(
        rows_done=BulkJob.rows_done + param("rows"), rows_ok=BulkJob.rows_ok + param("ok"),
        rows_error=BulkJob.rows_error + param("error"), created=BulkJob.created + param("created"),
        updated=BulkJob.updated + param("updated"), deleted=BulkJob.deleted + param("deleted"),
        heartbeat=param("now")).where(BulkJob.id == param("job")),
        {"job": job_id, "rows": rows, "ok": ok, "error": rows - ok, "created": created, "updated": updated,
         "deleted": deleted, "now": BulkJob.heartbeat.db_value(now)})


def is_value_id(domain_id, attribute_id, value):
    """Whether some product of the domain has `value` as the attribute's value id."""
    return execute_prepared("bulk_is_value_id", lambda: ProductAttribute.select(ProductAttribute.product).join(
        AttributeScope, on=ProductAttribute.scope == AttributeScope.id).where(
        AttributeScope.domain_id == param("domain"), AttributeScope.attribute_id == param("attribute"),
        ProductAttribute.value_id == param("value")).limit(1),
        {"domain": domain_id, "attribute": attribute_id, "value": value}).fetchone() is not None
