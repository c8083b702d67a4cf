"""Real `flask --app wsgi worker` processes: a worker killed (SIGKILL) after the change committed and
while it was posting; the next worker delivers the notification, with the same _id."""
import datetime
import os
import signal
import time

import pytest

from app.models import Notification
from tests.bulk.test_workers import Worker
from tests.notifications.conftest import add_vehicle

pytestmark = pytest.mark.slow


def _wait(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_worker_killed_before_delivering_loses_nothing(app, client, subscribe, receiver, run_db):
    subscribe(receiver.url)
    add_vehicle(client)  # committed, no worker running: the outbox holds it
    # Its delivery timeout far past the receiver's delay: killed while it waits, whatever the load of the
    # host (with the default 500 ms it recorded its failed attempt when the kill came late).
    first = Worker(app, NOTIFY_ALLOW_PRIVATE="true", NOTIFY_TIMEOUT_MS="30000")
    try:
        receiver.delay_s = 5  # the first worker waits on its answer...
        first.wait_ready()
        assert _wait(lambda: receiver.received), "".join(first.lines)
        first.stop(signal.SIGKILL)  # ...and dies before it records anything
    finally:
        first.stop(signal.SIGKILL)
    [lost] = run_db(lambda: list(Notification.select()))
    assert (lost.status, lost.attempts) == ("PENDING", 0)
    # Its lease ends (moved to now rather than waited for).
    run_db(lambda: Notification.update(next_at=datetime.datetime(2000, 1, 1)).execute())
    receiver.delay_s = 0
    second = Worker(app, NOTIFY_ALLOW_PRIVATE="true").wait_ready()
    try:
        assert _wait(lambda: len(receiver.received) == 2), "".join(second.lines)
    finally:
        second.stop()
    bodies = receiver.bodies()
    assert len(bodies) == 2 and bodies[0]["_id"] == bodies[1]["_id"]  # at least once, one _id to drop repeats
    assert bodies[1]["attempts"] == 1


def _nice_values(pid):
    """{thread id: nice value} of a process's threads (the 19th field of /proc/PID/task/TID/stat)."""
    values = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/stat") as stat:
            values[int(tid)] = int(stat.read().rsplit(")", 1)[1].split()[16])
    return values


def test_a_worker_posts_notifications_at_the_services_priority_and_applies_jobs_below_it(app):
    worker = Worker(app).wait_ready()
    try:
        base = os.getpriority(os.PRIO_PROCESS, 0)
        nice = _nice_values(worker.process.pid)
        assert nice[worker.process.pid] == base + 10  # the consumer and the job threads it starts
        assert base in nice.values()  # the notifications' thread
    finally:
        worker.stop()
