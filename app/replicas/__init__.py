"""Read replicas (DATABASE_REPLICA_URLS): PostgreSQL hot standbys, fed by PostgreSQL's own streaming
replication, serving the requests of the views declared `reads="replica"` (app/http/smorest.py).

The route is decided once per request, before its view runs (app/http/hooks.py): `db` points at a
replica for the whole request (app/db_route.py), or stays on the primary. A replica serves while it
answers and lags at most REPLICA_MAX_LAG_MS, measured at most once a PROBE_INTERVAL_S per worker;
otherwise the next replica, then the primary serves, and a warning is logged at most once a minute
per worker. A read that fails on its replica is read again from the primary (`reads_from_replica`),
so a replica that stops fails no request.
"""
import contextlib
import functools
import logging
import time

import psycopg
from peewee import DatabaseError, InterfaceError

from app.config import shown_url
from app.db import db, make_database
from app.db_faults import describe_failure
from app.log_throttle import WARNING_INTERVAL_S, Throttle
from app.replicas.queries import lag_ms

log = logging.getLogger("app.db")

PROBE_INTERVAL_S = 1.0  # a replica's lag is measured again after this
RETRY_AFTER_FAILURE_S = 5.0  # a replica that failed is tried again after this
# libpq's shortest connect timeout: what a replica that does not answer costs one request at most,
# once per RETRY_AFTER_FAILURE_S.
CONNECT_TIMEOUT_S = 2
# What a read on a replica that failed raises: peewee's errors, and psycopg's it does not wrap.
READ_FAILURES = (DatabaseError, InterfaceError, psycopg.Error)


class Replica:
    def __init__(self, url, database):
        self.name = shown_url(url)
        self.database = database
        self.measured_until = 0.0  # its lag was measured within the limit; measured again from then
        self.skipped_until = 0.0  # it failed or lagged: not tried before then


class ReplicaSet:
    """The replicas of one app, taken in turn."""

    def __init__(self, replicas, max_lag_ms, clock=time.monotonic):
        self.replicas, self.max_lag_ms, self.clock = replicas, max_lag_ms, clock
        self._turn = 0
        self._warnings = Throttle(WARNING_INTERVAL_S, clock)

    @classmethod
    def from_settings(cls, settings):
        """The set DATABASE_REPLICA_URLS names, or None; nothing connects here (gunicorn forks later)."""
        urls = settings["DATABASE_REPLICA_URLS"]
        if not urls:
            return None
        quick = {**settings, "DB_CONNECT_TIMEOUT_S": min(settings["DB_CONNECT_TIMEOUT_S"], CONNECT_TIMEOUT_S)}
        return cls([Replica(url, make_database(url, quick)) for url in urls], settings["REPLICA_MAX_LAG_MS"])

    def choose(self):
        """A replica's database, connected, for this request to read from; None: the primary serves."""
        count = len(self.replicas)
        start, self._turn = self._turn, (self._turn + 1) % count
        for turn in range(count):
            replica = self.replicas[(start + turn) % count]
            if self._ready(replica):
                return replica.database
        return None

    def _ready(self, replica):
        now = self.clock()
        if now < replica.skipped_until:
            return False
        try:
            replica.database.connect(reuse_if_open=True)
            if now >= replica.measured_until:
                lag = lag_ms(replica.database)
                if lag > self.max_lag_ms:
                    replica.database.close()
                    behind = f"{lag:.0f} ms" if lag != float("inf") else "by all it has received"
                    self._skip(replica, now + PROBE_INTERVAL_S,
                               f"it lags {behind} behind the primary (REPLICA_MAX_LAG_MS={self.max_lag_ms})")
                    return False
                replica.measured_until = now + PROBE_INTERVAL_S
        except Exception as exc:  # any driver's "cannot connect", or a deadline
            self.failed(replica.database, exc)
            return False
        return True

    def failed(self, database, exc):
        """A statement or the connection of `database` failed: its connection is dropped, and the
        replica is not tried for RETRY_AFTER_FAILURE_S."""
        replica = next(replica for replica in self.replicas if replica.database is database)
        if not database.is_closed():
            with contextlib.suppress(Exception):  # a broken connection may fail its own close
                database.manual_close()
        self._skip(replica, self.clock() + RETRY_AFTER_FAILURE_S, f"it failed: {describe_failure(exc)}")

    def _skip(self, replica, until, why):
        replica.skipped_until, replica.measured_until = until, 0.0
        if self._warnings.ready():
            log.warning("read replica %s skipped, another replica or the primary serves its reads: %s",
                        replica.name, why)

    def close(self):
        for replica in self.replicas:
            replica.database.close_all()


def reads_from_replica(view):
    """Declares that `view` reads from a replica (app/http/smorest.py); when its read fails there (the
    replica stopped, or cancelled the statement in a conflict with its recovery), it is read again
    from the primary, which then answers 503 if it cannot."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        replica = db.routed
        if replica is None:
            return view(*args, **kwargs)
        try:
            return view(*args, **kwargs)
        except READ_FAILURES as exc:
            db.replicas.failed(replica, exc)
            db.route(None)
        db.primary.connect(reuse_if_open=True)
        return view(*args, **kwargs)

    wrapper.reads = "replica"
    return wrapper


@contextlib.contextmanager
def on_primary():
    """Inside a request that reads from a replica, the block's queries go to the primary (the token
    check), whose connection is opened if need be; elsewhere nothing changes."""
    replica = db.routed
    if replica is None:
        yield
        return
    db.route(None)
    try:
        db.primary.connect(reuse_if_open=True)
        yield
    finally:
        db.route(replica)
