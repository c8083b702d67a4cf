"""Notifications in the task queue's workers: a thread of each `flask --app wsgi worker` that posts
what is due every NOTIFY_POLL_MS, and a periodic task on the same huey that does one pass and
purges missed notifications older than two days (so deliveries go on even on a worker started
without the thread, e.g. huey's own consumer)."""
import logging
import threading

from app.db import connection
from app.services.notifications.pump import BATCH, pump_once, purge_missed
from app.services.notifications.receivers import Receivers

log = logging.getLogger("app.notifications")


def register(queue, settings):
    """The periodic task on the bulk jobs' huey."""
    import huey  # as the queue imports it: when it is first built (app/services/bulk/queue.py)

    receivers = Receivers()

    @queue.periodic_task(huey.crontab(), name="notify.sweep")
    def notify_sweep():
        pump_once(settings, receivers=receivers)
        with connection():
            purge_missed()

    return notify_sweep


class NotificationPump:
    """A daemon thread: a pass, then a pause of NOTIFY_POLL_MS; a quarter of it after a pass that found
    work, none after one that posted a full batch (more may be due). Not none whenever a pass found
    work: under a steady stream of changes (a bulk job's items) each pass found a few, and the pumps'
    passes, back to back, took SQLite's one writer from the job's consumers."""

    def __init__(self, settings):
        self.settings = settings
        self._stop = threading.Event()
        self.receivers = Receivers()
        self.thread = threading.Thread(target=self._run, name="notify-pump", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self._stop.set()
        self.thread.join(10)

    def _run(self):
        pause = self.settings["NOTIFY_POLL_MS"] / 1000
        while not self._stop.is_set():
            try:
                events, attempts = pump_once(self.settings, receivers=self.receivers)
            except Exception:  # the database is away: try again at the next pause
                log.exception("notifications: a pass failed")
                events = attempts = 0
            if attempts < BATCH:
                self._stop.wait(pause / 4 if events or attempts else pause)
