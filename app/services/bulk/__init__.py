"""Bulk compatibility jobs (extensions.md, J): stored in J1's transaction, run by the task queue's
consumers (`flask --app wsgi worker`) one item at a time through the compat services."""
from app.services.bulk.apply import limits_for
from app.services.bulk.bodies import spool
from app.services.bulk.jobs import BulkLimits, cancel_job, get_job, list_jobs, list_results, submit_job
from app.services.bulk.queue import JobQueue
from app.services.bulk.run import sweep, work_on_job

__all__ = ["BulkLimits", "JobQueue", "cancel_job", "get_job", "limits_for", "list_jobs", "list_results", "spool",
           "submit_job", "sweep", "work_on_job"]
