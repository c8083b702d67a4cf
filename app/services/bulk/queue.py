"""The task queue the bulk jobs run on: huey, its storage named by QUEUE_URL. By default it sits beside
the database: a SQLite file next to the embedded one (no server to run), or tables in DATABASE_URL's
PostgreSQL, which every worker host reaches already; a Redis serves too (redis://host:6379/0).

The queue carries only job ids: the job and its rows are in the database, written in J1's
transaction, so a task lost with its queue (or never enqueued) costs a delay until the sweep, never
a job."""
import logging
import os
import threading
import time
from urllib.parse import urlsplit

from app.db import connection, deadline_connector
from app.services.bulk import queries
from app.services.bulk.run import sweep, work_on_job
from app.services.compat.context import CatalogReads
from app.services.notifications import worker as notifications_worker

log = logging.getLogger("app.bulk")
# An idle consumer polls its storage at most this far apart (PostgreSQL's storage is woken at once).
MAX_POLL_DELAY_S = 1.0
# A consumer's task slices share their catalog reads (a family's vehicles, a value's id, a domain's
# rules) for this long: a job's items mostly name the same few families, and reading each again
# per slice was a large part of a slice's work. An operator's catalog import reaches the jobs that
# late at most.
CATALOG_READS_S = 30.0


def queue_url(settings, database_url):
    """QUEUE_URL, or the storage beside the database."""
    if settings["QUEUE_URL"]:
        return settings["QUEUE_URL"]
    if database_url.startswith("sqlite:///"):
        return database_url.removesuffix(".db") + "-queue.db"
    return database_url


def make_huey(url, name, settings):
    # Imported here, when a process first enqueues or works a job: huey imports redis-py whatever the
    # storage, and a web worker that only reads holds neither.
    import huey

    scheme = urlsplit(url).scheme
    # No result store: a task's outcome is the job's row, which J2 reads.
    if scheme == "sqlite":
        path = url[len("sqlite:///"):]
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        return huey.SqliteHuey(name, filename=path, results=False, timeout=settings["SQLITE_BUSY_TIMEOUT_MS"] / 1000)
    if scheme in ("postgres", "postgresql"):
        # Bounded as the service's own connections are: a frozen server fails a worker's poll or
        # J1's enqueue within the deadline, never hangs it.
        connect = deadline_connector(url.replace("postgres://", "postgresql://", 1), settings)
        queue = huey.PostgresHuey(name, connection=connect, results=False, create_tables=False)
        with connect() as conn:
            queries.create_queue_tables(conn, queue.storage.ddl)
        return queue
    if scheme in ("redis", "rediss", "unix"):
        return huey.RedisHuey(name, url=url, results=False)
    raise ValueError(f"QUEUE_URL: unsupported scheme {scheme!r} (sqlite:///path, postgresql://..., redis://...)")


class JobQueue:
    """The job tasks on a huey built at first use, so that no connection opens before gunicorn forks."""

    def __init__(self, url, settings, limits):
        self.url, self.settings, self.limits = url, settings, limits
        self._huey = None
        self._lock = threading.Lock()
        self._reads = CatalogReads()

    @classmethod
    def from_settings(cls, settings, database_url, limits):
        return cls(queue_url(settings, database_url), settings, limits)

    @property
    def huey(self):
        with self._lock:
            if self._huey is None:
                self._huey = self._build()
        return self._huey

    def _build(self):
        import huey

        queue = make_huey(self.url, self.settings["QUEUE_NAME"], self.settings)
        self._run = queue.task(name="bulk.run_job")(self._run_job)
        queue.periodic_task(huey.crontab(), name="bulk.sweep")(self.sweep)
        notifications_worker.register(queue, self.settings)  # notifications ride on the same workers
        return queue

    def close(self):
        """Closes the storage's connections (an app built again in one process: tests, tools)."""
        if self._huey is not None:
            self._huey.storage.close()

    def enqueue(self, job_id):
        self.huey  # noqa: B018 (builds the tasks)
        self._run(job_id)

    def _run_job(self, job_id):
        # A job's batches hold their items' locks, and on PostgreSQL N4's pages, as a request's write
        # does: a consumer frozen mid-batch has its transaction ended by the server as a request would.
        with connection(keep=("idle_in_transaction_session_timeout",)):
            work_on_job(job_id, self.limits, self.settings["BULK_SLICE_S"], lambda: self.enqueue(job_id),
                        batch_s=self.settings["BULK_BATCH_MS"] / 1000, reads=self._catalog_reads())

    def _catalog_reads(self, clock=time.monotonic):
        """The catalog reads this consumer's slices share, renewed every CATALOG_READS_S (thread
        workers may share one: a race reads a key twice, never wrongly)."""
        now = clock()
        if now - self._reads.born > CATALOG_READS_S:
            self._reads = CatalogReads(now)
        return self._reads

    def sweep(self):
        return sweep(self.settings["BULK_STALE_AFTER_S"], self.settings["BULK_MAX_ATTEMPTS"],
                     self.settings["BULK_RETENTION_DAYS"], self.enqueue)

    def run_pending(self):
        """Runs the tasks waiting in the queue, in this thread, until none is left (tests, benchmarks)."""
        ran = 0
        # pending_count first: a PostgreSQL storage's dequeue waits for a notification when it finds none.
        while self.huey.pending_count() and (task := self.huey.dequeue()) is not None:
            task.execute()  # not huey.execute, which logs a failure and goes on: a caller here wants it raised
            ran += 1
        return ran

    def consumer(self, threads):
        """huey's consumer: `threads` workers taking tasks, and its scheduler running the sweep each minute."""
        return self.huey.create_consumer(workers=threads, worker_type="thread", max_delay=MAX_POLL_DELAY_S,
                                         check_worker_health=True)
