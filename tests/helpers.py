"""Plain helpers shared by the tests of every area (the fixtures are in tests/conftest.py).

Test modules import from here, never from conftest.
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from contextlib import contextmanager

import psycopg
import pytest

from app import create_app
from app.config import SETTINGS
from app.db import connection, db
from app.migrations import create_schema
from app.models import ALL_MODELS

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = [b for b in ("sqlite", "postgresql")
            if b in os.environ.get("TEST_DATABASES", "sqlite,postgresql").split(",")]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


ERROR_KEYS = {"message", "error", "status", "cause"}


def assert_error(response, status, error=None, message=None):
    """The response is the error object (service-spec.md) with this status, and no other key but
    the `errors` list of `chart_validation_error` (decisions.md); `error` and `message` are checked
    when given. Returns the body."""
    body = response.get_json()
    assert response.status_code == status, (response.request.method, response.request.path, body)
    allowed = ERROR_KEYS | ({"errors"} if body.get("error") == "chart_validation_error" else set())
    assert ERROR_KEYS <= set(body) <= allowed, body
    assert body["status"] == status and body["message"] and isinstance(body["cause"], list), body
    if error is not None:
        assert body["error"] == error, body
    if message is not None:
        assert body["message"] == message, body
    return body


_last_queue = []


def make_app(database_url, **overrides):
    """An app on `database_url`. The bulk queue of the app made before it is closed, as `install`
    closes the database it replaces: a queue on PostgreSQL holds a connection of its own."""
    while _last_queue:
        _last_queue.pop().close()
    app = create_app({"DATABASE_URL": database_url, **overrides})
    _last_queue.append(app.extensions["bulk_queue"])
    return app


def pg_admin():
    """An autocommit connection to the PostgreSQL server; skips the test when it is unreachable,
    unless REQUIRE_POSTGRES=1 (CI) makes that a failure."""
    try:
        conn = psycopg.connect(PG_ADMIN_URL, connect_timeout=3)
    except psycopg.OperationalError as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL required but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    conn.autocommit = True
    return conn


@contextmanager
def recorded_statements(params=None):
    """The SQL statements run inside the block, in a list: each one a round trip on PostgreSQL. Each
    statement's parameters are appended to `params` when it is a list."""
    seen = []
    execute = db.obj.execute_sql
    patched_before = "execute_sql" in vars(db.obj)

    def counting(sql, bound=None, *args, **kwargs):
        seen.append(sql)
        if params is not None:
            params.append(bound)
        return execute(sql, bound, *args, **kwargs)

    db.obj.execute_sql = counting
    try:
        yield seen
    finally:
        if patched_before:
            db.obj.execute_sql = execute
        else:
            del db.obj.execute_sql


def emptied_app(request, database_url, **settings):
    """An app with these settings on the database at `database_url`, which has the schema and no rows.
    A new SQLite file is a copy of a schema built once per process: the copy costs far less than the
    DDL."""
    seeded = _seed_sqlite(database_url)
    app = make_app(database_url, **settings)
    if not seeded:
        with app.app_context(), connection():
            empty_schema(request, database_url)
    return app


def loaded_app(request, database_url, **settings):
    """`emptied_app` loaded with the base bundle (client 5501, secret s3cret, acting for seller 1001)."""
    from app.services.bundle import import_bundle
    from tests.bundles import base_bundle

    app = emptied_app(request, database_url, **settings)
    with app.app_context(), connection():
        import_bundle(base_bundle())
    return app


_sqlite_template = []


def _seed_sqlite(database_url):
    """Copies the process's schema into the SQLite file of `database_url` when that file does not exist
    yet; False for PostgreSQL and for a file that exists."""
    if not database_url.startswith("sqlite:///"):
        return False
    path = database_url[len("sqlite:///"):]
    if os.path.exists(path):
        return False
    if not _sqlite_template:
        folder = tempfile.mkdtemp(prefix="schema-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = os.path.join(folder, "schema.db")
        app = make_app(f"sqlite:///{template}")
        with app.app_context(), connection():
            create_schema()
            db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file that is copied
        db.close()
        _sqlite_template.append(template)
    shutil.copyfile(_sqlite_template[0], path)
    return True


def queued_app(request, database_url, **settings):
    """A generator for an `app` fixture: `loaded_app` with a bulk queue under a name of the test's
    own (a SQLite file beside its database, or on PostgreSQL tables under that name); afterwards the
    queue and the database's connections are closed."""
    app = loaded_app(request, database_url, QUEUE_NAME=f"test-{uuid.uuid4().hex[:12]}", **settings)
    yield app
    app.extensions["bulk_queue"].close()
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()


def serving(server):
    """A generator for a fixture of a local test server: yields it, then closes it."""
    yield server
    server.close()


def empty_schema(request, database_url):
    """Inside an app context with a connection: the schema with no rows. On PostgreSQL the
    schema is made once per session (the `postgres_database` fixture), then emptied, which is
    faster than DDL."""
    if not database_url.startswith("postgresql"):
        create_schema()
        return
    state = request.getfixturevalue("postgres_database")
    if not state["schema_ready"]:
        create_schema()
        state["schema_ready"] = True
    with db.atomic():
        db.execute_sql(EMPTY_POSTGRES_SCHEMA)


# DELETE, not TRUNCATE: a TRUNCATE gives every table and index a new file, which costs far more than
# the few rows a test wrote. Foreign keys and triggers are off for the transaction (the tests connect as
# a superuser), so the order of the tables does not matter and no trigger writes a change record. The
# sequences restart as with RESTART IDENTITY (the bulk queue's own tables keep theirs). The planner's row
# estimates stay as the last ANALYZE left them: a test that depends on them runs ANALYZE itself (an
# ANALYZE here would record "no rows" for tables whose pages the deletes leave behind, and the planner
# would then plan every query of the next test as if its tables were empty). One round trip.
_TABLES = [f'"{model._meta.table_name}"' for model in ALL_MODELS]
EMPTY_POSTGRES_SCHEMA = "; ".join([
    "SET LOCAL session_replication_role = replica",
    *(f"DELETE FROM {table}" for table in _TABLES),
    "SELECT setval(s.seqrelid, s.seqstart, false) FROM pg_sequence s"
    " JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.seqrelid AND d.deptype IN ('a', 'i')"
    " WHERE d.refobjid IN (" + ", ".join(f"'{table}'::regclass" for table in _TABLES) + ")"])


def marshmallow_dump(schema, obj, direct):
    """marshmallow's own field-by-field dump of `obj`, every schema of `direct` (classes using
    schemas.common.DirectAccess, nested ones included) switched back to marshmallow's `_serialize`
    for this dump: what DirectAccess must answer too."""
    from marshmallow import Schema

    from schemas.common import DirectAccess

    assert all(issubclass(cls, DirectAccess) and "_serialize" not in vars(cls) for cls in direct)
    try:
        for cls in direct:
            cls._serialize = Schema._serialize
        return schema.dump(obj)
    finally:
        for cls in direct:
            del cls._serialize


def accept_until_closed(listener, handle):
    """`handle(connection)` for each connection a test's own server socket accepts, until it is closed."""
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        handle(connection)


def python_with_settings(args, **env):
    """`python ARGS` in the project's folder, with none of the service's settings from this environment
    but `env`: what a fresh shell with only those set would run."""
    environment = {key: value for key, value in os.environ.items() if key not in {s.name for s in SETTINGS}}
    environment.update(env)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, *args], cwd=root, env=environment, capture_output=True, text=True,
                          timeout=60)


def python_json(args, **env):
    """What the last line of `python ARGS`'s output holds, as JSON (python_with_settings), the run
    having succeeded."""
    result = python_with_settings(args, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


class Clock:
    """A monotonic clock for code that takes one (`clock=`): it moves only when the test moves it
    (`clock.now += seconds`), so an interval passes without sleeping through it."""

    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now
