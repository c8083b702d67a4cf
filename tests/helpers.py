"""Plain helpers shared by the tests of every area (the fixtures are in tests/conftest.py).

Test modules import from here, never from conftest.
"""
import os
import uuid
from contextlib import contextmanager

import psycopg
import pytest

from app import create_app
from app.db import db
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
def recorded_statements():
    """The SQL statements run inside the block, in a list: each one a round trip on PostgreSQL."""
    seen = []
    execute = db.obj.execute_sql
    patched_before = "execute_sql" in vars(db.obj)

    def counting(sql, params=None, *args, **kwargs):
        seen.append(sql)
        return execute(sql, params, *args, **kwargs)

    db.obj.execute_sql = counting
    try:
        yield seen
    finally:
        if patched_before:
            db.obj.execute_sql = execute
        else:
            del db.obj.execute_sql


def loaded_app(request, database_url, **settings):
    """An app with these settings on the database at `database_url`, emptied and loaded with the
    base bundle (client 5501, secret s3cret, acting for seller 1001)."""
    from app.db import connection
    from app.services.bundle import import_bundle
    from tests.bundles import base_bundle

    app = make_app(database_url, **settings)
    with app.app_context(), connection():
        empty_schema(request, database_url)
        import_bundle(base_bundle())
    return app


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
    schema is made once per session (the `postgres_database` fixture), then truncated, which is
    faster than DDL."""
    if not database_url.startswith("postgresql"):
        create_schema()
        return
    state = request.getfixturevalue("postgres_database")
    if not state["schema_ready"]:
        create_schema()
        state["schema_ready"] = True
    tables = ", ".join(f'"{m._meta.table_name}"' for m in ALL_MODELS)
    db.execute_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


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
