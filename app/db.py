"""The database handle, chosen from DATABASE_URL, and the transaction helpers every write uses."""
import os
from contextlib import contextmanager
from urllib.parse import urlsplit

from peewee import DatabaseProxy, PostgresqlDatabase
from playhouse import db_url
from playhouse.pool import PooledSqliteDatabase

db = DatabaseProxy()


def default_sqlite_url(instance_path):
    return "sqlite:///" + os.path.join(instance_path, "marketplace.db")


def make_database(url, settings):
    """Build (but do not open) the database that `url` names.

    Nothing connects here: gunicorn forks workers after the app is built, and a
    connection opened before the fork would be shared by every worker.
    """
    scheme = urlsplit(url).scheme
    if scheme == "sqlite":
        path = url[len("sqlite:///"):]
        if path == ":memory:" or not path:
            raise ValueError("DATABASE_URL: use a SQLite file, not :memory: "
                             "(each worker opens its own connection)")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        # IMMEDIATE: a write transaction takes the write lock at BEGIN, so two writers
        # queue on the busy timeout instead of failing with "database is locked".
        # Pooled: a connection per request cost five PRAGMAs on each open and, when it was the
        # last one open, a full WAL checkpoint on each close (half of a write's time).
        return PooledSqliteDatabase(
            path,
            max_connections=None,
            stale_timeout=settings["DB_STALE_TIMEOUT_S"],
            lock_type="IMMEDIATE",
            autoconnect=False,
            # A pooled connection may serve another thread later (never two at once).
            check_same_thread=False,
            pragmas={
                "journal_mode": "wal",
                "foreign_keys": 1,
                "busy_timeout": settings["SQLITE_BUSY_TIMEOUT_MS"],
                "synchronous": "normal",
                "cache_size": -32000,
            },
        )
    if scheme in ("postgres", "postgresql"):
        # A small pool per worker process, opened lazily after the fork.
        url = url.replace(scheme + "://", "postgresql+pool://", 1)
        return db_url.connect(
            url,
            autoconnect=False,
            max_connections=settings["DB_MAX_CONNECTIONS"],
            stale_timeout=settings["DB_STALE_TIMEOUT_S"],
        )
    if scheme.startswith("postgresql+") or scheme.startswith("postgres+"):
        return db_url.connect(url, autoconnect=False)
    raise ValueError(f"DATABASE_URL: unsupported database scheme {scheme!r} "
                     "(use sqlite:///path or postgresql://user@host:port/name)")


_compiled_sql = {}


def compiled_sql(name, build):
    """The SQL text of a hot query, compiled by peewee once per dialect instead of on every call.

    `build()` returns the query with placeholder values; run the text with `Model.raw(sql, *params)`,
    params in the order the placeholders appear.
    """
    key = (name, db.obj.param, db.obj.quote)
    sql = _compiled_sql.get(key)
    if sql is None:
        sql = _compiled_sql[key] = build().sql()[0]
    return sql


def is_postgres():
    return isinstance(db.obj, PostgresqlDatabase)


@contextmanager
def connection():
    """Open a connection for a CLI command or a test, reusing one that is open."""
    opened = db.is_closed()
    if opened:
        db.connect()
    try:
        yield db
    finally:
        if opened:
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
