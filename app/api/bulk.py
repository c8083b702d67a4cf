"""Bulk compatibility jobs (J1 to J5): a seller's whole catalog in one upload, applied by the workers."""
from flask import current_app, g, request
from flask.views import MethodView

from app.http.ratelimit import compat_rate_limit
from app.http.smorest import Blueprint
from app.services import bulk
from schemas.bulk import (
    CSV_TYPE,
    BulkJobSchema,
    BulkJobsPageSchema,
    BulkJobsQuerySchema,
    BulkResultsPageSchema,
    BulkResultsQuerySchema,
    BulkRowsSchema,
)
from schemas.examples import bulk as examples

blp = Blueprint("bulk", __name__, description="Bulk compatibility jobs (J1 to J5)")

JOB = ("bulk_job_not_found", "forbidden")
UPLOAD = {"required": True, "content": {
    "application/json": {"schema": BulkRowsSchema, "example": examples.JSON_BODY},
    "application/x-ndjson": {"schema": {"type": "string", "description": "One row (as in `rows`) a line"},
                             "example": examples.NDJSON_BODY},
    CSV_TYPE: {"schema": {"type": "string", "description": (
        "Header: item_id, action, then product_id or the attribute columns of a family (BRAND, MODEL, "
        "VEHICLE_YEAR...: a value id or name), then optional note and position (a POSITION value id or "
        "name). One line per item and vehicle; an item's lines make one row")}, "example": examples.CSV_BODY}}}
IDEMPOTENCY_KEY = {"in": "header", "name": "Idempotency-Key", "required": False, "schema": {
    "type": "string", "minLength": 1, "maxLength": 255},
    "description": "The same key and body again answer 200 with the same job; "
    "the same key with another body is a 409 `idempotency_conflict`"}
LOCATION = {"Location": {"description": "The job: /compatibilities/bulk/{job_id}", "schema": {"type": "string"}}}


@blp.route("/compatibilities/bulk")
class BulkJobs(MethodView):
    # app/http/bodies.py: the hooks that read bodies leave this one to the view, which reads it as a
    # stream of up to BULK_MAX_BYTES.
    STREAMED_BODY = ("POST",)

    @blp.read(BulkJobsPageSchema, example=examples.JOBS)
    @blp.arguments(BulkJobsQuerySchema, location="query")
    def get(self, query):
        """List your bulk jobs

        J4. The caller's jobs, newest first; `status` keeps those of one status.
        """
        return bulk.list_jobs(g.caller_id, query.get("status"), query["limit"], query["offset"])

    @blp.auth("token")
    @compat_rate_limit
    @blp.errors("validation_error", "invalid_json", "invalid_csv", "too_many_rows", "invalid_characters",
                "request_entity_too_large", "idempotency_conflict", "too_many_jobs", "local_rate_limited")
    @blp.doc(requestBody=UPLOAD, parameters=[IDEMPOTENCY_KEY])
    @blp.response(202, BulkJobSchema, example={**examples.JOB, "status": "QUEUED"}, headers=LOCATION)
    @blp.alt_response(200, schema=BulkJobSchema, description="The job an earlier request with the same "
                      "Idempotency-Key and body made", headers=LOCATION, example=examples.JOB)
    def post(self):
        """Upload compatibilities for many items as one job

        J1. JSON `{rows: [...]}`, JSON Lines (`application/x-ndjson`) or CSV (`text/csv`), up to
        BULK_MAX_BYTES and BULK_MAX_ROWS; the whole body's shape is checked (a 400 names the line at
        fault, and makes no job), the job and its rows are stored and queued: 202 with the job. The
        workers apply each item's rows in one transaction, as the synchronous endpoints would, without
        their 200-product limit. One request against the write rate limit; at most
        BULK_MAX_JOBS_IN_FLIGHT jobs queued or running per seller (429 `too_many_jobs`).
        """
        config = current_app.config
        request.max_content_length = config["BULK_MAX_BYTES"]
        body = bulk.spool(request.stream, request.mimetype, config["BULK_MAX_BYTES"])
        submitted = bulk.submit_job(body, g.caller_id, g.get("client_id"), g.get("request_id"),
                                    request.headers.get("Idempotency-Key"), bulk.BulkLimits.from_config(config),
                                    current_app.extensions["bulk_queue"])
        return submitted.job, 200 if submitted.replayed else 202, {"Location": f"/compatibilities/bulk/"
                                                                               f"{submitted.job.id}"}


@blp.route("/compatibilities/bulk/<job_id>")
class BulkJobById(MethodView):
    @blp.read(BulkJobSchema, *JOB, example=examples.JOB)
    def get(self, job_id):
        """Read a bulk job

        J2. Its status, its rows' counts (`done` grows as the workers go) and the compatibilities it
        changed. Only its seller may read it.
        """
        return bulk.get_job(job_id, g.caller_id)

    @blp.auth("token")
    @blp.errors(*JOB, "bulk_job_finished")
    @blp.response(200, BulkJobSchema, example={**examples.JOB, "status": "CANCELLED"})
    def delete(self, job_id):
        """Cancel a bulk job

        J5. Rows not started become CANCELLED, rows done stay done (an item being applied finishes);
        a finished job is a 409.
        """
        return bulk.cancel_job(job_id, g.caller_id)


@blp.route("/compatibilities/bulk/<job_id>/results")
class BulkJobResults(MethodView):
    @blp.read(BulkResultsPageSchema, *JOB, example=examples.RESULTS)
    @blp.arguments(BulkResultsQuerySchema, location="query")
    def get(self, query, job_id):
        """Read a bulk job's row results

        J3. In row order; `status=ERROR` keeps the failed rows, each with the error object the
        synchronous endpoint answers for the same problem.
        """
        return bulk.list_results(job_id, g.caller_id, query.get("status"), query["limit"], query["offset"])
