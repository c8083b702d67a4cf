"""The database handle, chosen from DATABASE_URL, and the transaction helpers every write uses."""
import os
import sqlite3
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

import psycopg
from peewee import PostgresqlDatabase, Psycopg3Adapter, _savepoint
from playhouse import db_url, pool
from playhouse.pool import PooledSqliteDatabase

from app.config import SERVER_TIMEOUTS, SettingsError, shown_url
from app.db_route import RoutedDatabaseProxy

db = RoutedDatabaseProxy()


def _null(value):
    return None


# sqlite3 binds int, float, str and bytes as they are; any other parameter, None and bool included,
# goes through its adaptation protocol, which first asks the protocol's type for `__adapt__` and
# formats the AttributeError that lookup raises, for every None or bool bound: a large share of a
# compatibility import's work, which binds many of them. A registered adapter is found first,
# by one dict lookup. Stored as before: NULL, and a bool as the integer 0 or 1.
sqlite3.register_adapter(type(None), _null)
sqlite3.register_adapter(bool, int)


def embedded_url(instance_path):
    """The embedded database's URL: a SQLite file in the instance folder."""
    return "sqlite:///" + os.path.join(instance_path, "marketplace.db")


def default_sqlite_url(instance_path):
    """The embedded database, used when DATABASE_URL is empty: the one URL whose folder is created."""
    os.makedirs(instance_path, exist_ok=True)
    return embedded_url(instance_path)


def sqlite_path(url):
    """The file a sqlite:/// URL names: sqlite:///relative/path is relative to the working directory,
    sqlite:////absolute/path absolute (three slashes, then the path)."""
    return url[len("sqlite:///"):]


# How long past the server's statement_timeout the client waits before it gives up on the server.
DEADLINE_MARGIN_MS = 500


class DeadlineConnection(psycopg.Connection):
    """A psycopg connection that never waits on its server longer than `deadline_s`.

    statement_timeout and lock_timeout are enforced by the server, so a frozen server (a stopped
    process, a storage stall, a host gone from the network) enforces nothing, and the request
    would wait until gunicorn killed its worker. Every round trip of a psycopg connection (a
    statement, its results, COMMIT, ROLLBACK, the pool's ping) goes through `wait`, which
    psycopg already bounds when given a timeout. Past it the connection is in an unknown place
    of the protocol, so it is closed: the pool discards it and the request answers 503."""

    deadline_s = None

    def wait(self, gen, interval=0.1, timeout=None):
        if timeout is not None or self.deadline_s is None:  # a wait of the caller's own (notifies())
            return super().wait(gen, interval, timeout)
        try:
            return super().wait(gen, interval, self.deadline_s)
        except psycopg.errors._WaitTimeout:  # psycopg's own timeout error is private; ours is not
            self.pgconn.finish()
            raise DatabaseDeadlineExceeded(
                f"the database server did not answer within {self.deadline_s * 1000:.0f} ms") from None


class DatabaseDeadlineExceeded(psycopg.OperationalError):
    """The server did not answer within the connection's deadline."""


class DeadlineAdapter(Psycopg3Adapter):
    """peewee's psycopg 3 adapter, opening `DeadlineConnection`s with the database's deadline."""

    def connect(self, db, **params):
        if db._encoding:
            params.setdefault("client_encoding", db._encoding)
        conn = DeadlineConnection.connect(dbname=db.database, **params)
        conn.deadline_s = db.deadline_s
        return conn

    def is_connection_closed(self, conn):
        """peewee's check of a pooled connection (a ping, or the rollback of a transaction left
        open), except that a server which does not answer fails the request at once: peewee takes
        any failure for a closed connection and tries the next pooled one, then a new one, so the
        request would wait out the deadline once per connection."""
        status = self.txn_status(conn)
        if status == self.txn_unknown:
            return True
        try:
            if status != self.txn_idle:
                self.rollback(conn)
            else:
                conn.cursor().execute("SELECT 1")
        except DatabaseDeadlineExceeded:
            raise
        except Exception:
            return True
        return False


class PooledPostgresqlDatabase(pool.PooledPostgresqlDatabase):
    """peewee's pool, which checks every connection it hands out with a `SELECT 1` round trip (a
    noticeable share of a short request). As HikariCP's aliveBypassWindowMs does, a
    connection returned to the pool less than `ping_after_idle_ms` ago is checked locally only
    (its transaction status), for it answered moments ago; 0 pings at every checkout. A
    connection that died within the window fails its request with 503 and is discarded at
    check-in, as one found dead by the ping would be."""

    psycopg3_adapter = DeadlineAdapter

    def __init__(self, database, ping_after_idle_ms=500, deadline_ms=None, **kwargs):
        self._ping_after_idle_s = ping_after_idle_ms / 1000
        self.deadline_s = deadline_ms / 1000 if deadline_ms else None
        self._returned_at = {}
        super().__init__(database, **kwargs)

    def set_deadline(self, seconds):
        """The deadline of the current connection's round trips (None: none)."""
        self.connection().deadline_s = seconds

    def reset_deadline(self):
        self.connection().deadline_s = self.deadline_s

    def _is_closed(self, conn):
        returned_at = self._returned_at.pop(self.conn_key(conn), None)
        if returned_at is not None and time.monotonic() - returned_at < self._ping_after_idle_s:
            # psycopg 3: `closed` is a bool; the adapter reads the transaction status libpq keeps locally.
            return conn.closed or not self._adapter.is_connection_reusable(conn)
        return super()._is_closed(conn)

    def _close(self, conn, close_conn=False):
        # Stamped first: when the connection is closed instead of pooled, _close_raw drops it.
        self._returned_at[self.conn_key(conn)] = time.monotonic()
        super()._close(conn, close_conn)

    def _close_raw(self, conn):
        self._returned_at.pop(self.conn_key(conn), None)
        super()._close_raw(conn)


class _SqliteSavepoint(_savepoint):
    """A savepoint whose rollback is skipped once SQLite has ended the whole transaction (below)."""

    def rollback(self, begin=True):
        if self.db.connection().in_transaction:
            super().rollback(begin)


class PooledSqlite(PooledSqliteDatabase):
    """peewee's pooled SQLite database, whose rollback keeps the error that ended the transaction.

    On some errors (a full disk, an I/O error, out of memory) SQLite rolls the transaction back by
    itself. peewee's ROLLBACK, or ROLLBACK TO its savepoint, then fails with "cannot rollback - no
    transaction is active", and Python raises that in place of the error that caused it: the log
    named a rollback instead of the full disk."""

    def rollback(self):
        if self.is_closed() or self.connection().in_transaction:
            super().rollback()

    def savepoint(self, sid=None):
        return _SqliteSavepoint(self, sid)


def make_database(url, settings):
    """Build (but do not open) the database that `url` names.

    Nothing connects here: gunicorn forks workers after the app is built, and a
    connection opened before the fork would be shared by every worker.
    """
    scheme = urlsplit(url).scheme
    if scheme == "sqlite":
        path = sqlite_path(url)
        if path == ":memory:" or not path:
            raise SettingsError([f"DATABASE_URL={url!r} is not accepted: use a SQLite file, not :memory: "
                                 "(each worker opens its own connection)"])
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            # Never created here: a typo (a missing slash makes an absolute path relative) would
            # otherwise put the data in a new folder nobody backs up.
            raise SettingsError([f"DATABASE_URL={url!r}: the folder {folder} does not exist (sqlite:///path is "
                                 "relative to the working directory, sqlite:////path absolute); create it first"])
        # IMMEDIATE: a write transaction takes the write lock at BEGIN, so two writers queue on the
        # busy timeout instead of failing with "database is locked". Pooled: a connection per request
        # cost five PRAGMAs on each open and, when it was the last one open, a full WAL checkpoint on each close.
        return PooledSqlite(
            path,
            max_connections=None,
            stale_timeout=settings["DB_STALE_TIMEOUT_S"],
            lock_type="IMMEDIATE",
            autoconnect=False,
            # A pooled connection may serve another thread later (never two at once). Read by declared type:
            # columns declared UUID or DATETIME (app/models/uuid_keys.py, timestamps.py).
            check_same_thread=False, detect_types=sqlite3.PARSE_DECLTYPES,
            pragmas={
                "journal_mode": "wal",
                "foreign_keys": 1,
                "busy_timeout": settings["SQLITE_BUSY_TIMEOUT_MS"],
                "synchronous": "normal",
                # Per connection, so per worker: part of its resident memory.
                "cache_size": -1024 * settings["SQLITE_CACHE_MB"],
            },
        )
    if scheme in ("postgres", "postgresql"):
        # A small pool per worker process, opened lazily after the fork.
        params = db_url.parse(url)
        if not params.get("database"):
            raise SettingsError([f"DATABASE_URL={shown_url(url)!r} names no database (postgresql://user@host:port/name)"])
        _with_timeouts(params, settings)
        return PooledPostgresqlDatabase(
            **params,
            # psycopg 3: it prepares a statement on the server from its fifth run on a connection, and
            # PostgreSQL stops planning it again.
            prefer_psycopg3=True,
            autoconnect=False,
            max_connections=settings["DB_MAX_CONNECTIONS"],
            stale_timeout=settings["DB_STALE_TIMEOUT_S"],
            ping_after_idle_ms=settings["DB_PING_AFTER_IDLE_MS"],
            deadline_ms=_deadline_ms(settings),
        )
    if scheme.startswith("postgresql+") or scheme.startswith("postgres+"):
        return db_url.connect(url, autoconnect=False, prefer_psycopg3=True)
    raise SettingsError([f"DATABASE_URL: unsupported database scheme {scheme!r} "
                         "(use sqlite:///path or postgresql://user@host:port/name)"])


def _with_timeouts(params, settings):
    """`params` with the connect timeout and the server's timeouts, set at connect time so no statement
    runs without them (options in the URL come last and win). JIT off: PostgreSQL compiled the plan of
    the items' recount after an import's chunk (a correlated subquery's cost) longer than it ran."""
    params.setdefault("connect_timeout", settings["DB_CONNECT_TIMEOUT_S"])
    timeouts = "".join(f"-c {name}={settings[setting]} " for name, setting in SERVER_TIMEOUTS.items())
    params["options"] = (timeouts + "-c jit=off " + params.get("options", "")).strip()
    return params


def _deadline_ms(settings):
    """The client's deadline: the server's statement_timeout and a margin (none without one)."""
    return settings["DB_STATEMENT_TIMEOUT_MS"] and settings["DB_STATEMENT_TIMEOUT_MS"] + DEADLINE_MARGIN_MS


def deadline_connector(url, settings):
    """Opens connections to `url` bounded as the pool's are, outside it (the task queue's storage)."""
    params = _with_timeouts(psycopg.conninfo.conninfo_to_dict(url), settings)
    deadline_ms = _deadline_ms(settings)

    def connect():
        conn = DeadlineConnection.connect(**params)
        conn.deadline_s = deadline_ms / 1000 if deadline_ms else None
        return conn

    return connect


def install(database, replicas=None):
    """Make `database` the one `db` stands for, and `replicas` (app/replicas) its read replicas,
    closing the connections of those they replace.

    A process builds one app, so only the tests replace a database: a pool dropped with its
    connections open left them to the garbage collector, which psycopg 3 reports (ResourceWarning,
    an error under pytest) where psycopg2 closed them silently."""
    old = db.primary
    if old is not None and old is not database:
        if hasattr(old, "close_all"):
            old.close_all()
        elif not old.is_closed():
            old.close()
    if db.replicas is not None and db.replicas is not replicas:
        db.replicas.close()
    db.route(None)
    db.replicas = replicas
    db.initialize(database)


def ping():
    """One round trip to the database; raises when it cannot answer."""
    db.obj.execute_sql("SELECT 1")  # db.obj: see app/http/current.py


def is_postgres():
    return isinstance(db.obj, PostgresqlDatabase)


@contextmanager
def connection(keep=()):
    """Open a connection for a CLI command or a test, reusing one that is open.

    A connection it opens runs without the API's statement, lock and idle timeouts (PostgreSQL) but
    those `keep` names: an import, a migration or a purge may rightly take minutes, and is stopped
    with Ctrl-C instead. They are restored before the connection goes back to the pool."""
    opened = db.is_closed()
    if opened:
        db.connect()
        if is_postgres():
            db.execute_sql("; ".join(f"SET {name} = 0" for name in SERVER_TIMEOUTS if name not in keep))
            if hasattr(db.obj, "set_deadline"):
                db.obj.set_deadline(None)
    try:
        yield db
    finally:
        if opened:
            _close_restoring_timeouts()


def _close_restoring_timeouts():
    if is_postgres():
        try:
            # RESET: back to the values the connection was opened with (make_database's options).
            db.execute_sql("; ".join(f"RESET {name}" for name in SERVER_TIMEOUTS))
            if hasattr(db.obj, "reset_deadline"):
                db.obj.reset_deadline()
        except Exception:  # a broken connection: dropped here, never pooled
            if hasattr(db.obj, "manual_close"):
                db.obj.manual_close()
                return
    db.close()


def write_transaction():
    """One transaction for one write; nested calls become savepoints."""
    return db.atomic()


def lock_rows(query):
    """Lock the rows a query selects until the transaction ends.

    PostgreSQL takes row locks; SQLite's IMMEDIATE transaction already holds the
    database write lock, and peewee refuses FOR UPDATE there.
    """
    if is_postgres():
        query = query.for_update()
    return list(query)
