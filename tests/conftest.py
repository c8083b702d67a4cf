"""A fresh app per test on a temporary SQLite file and on PostgreSQL, and its helpers.

Every test that uses `app` runs twice, `[sqlite]` and `[postgresql]`. The PostgreSQL run
creates its own database for the test session and drops it at the end. When PostgreSQL is
unreachable those runs are skipped, unless REQUIRE_POSTGRES=1 (CI) makes that a failure.
TEST_DATABASES=sqlite (or postgresql) narrows a local run to one backend.
"""
import os
import uuid

import psycopg2
import pytest

from app import create_app
from app.db import connection, db
from app.models import ALL_MODELS
from app.schema import create_schema

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = [b for b in ("sqlite", "postgresql")
            if b in os.environ.get("TEST_DATABASES", "sqlite,postgresql").split(",")]


def _pg_admin():
    conn = psycopg2.connect(PG_ADMIN_URL, connect_timeout=3)
    conn.autocommit = True
    return conn


@pytest.fixture(scope="session")
def postgres_database():
    """A database of this test session's own on the local PostgreSQL server."""
    try:
        admin = _pg_admin()
    except psycopg2.OperationalError as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL required but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    name = f"test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    state = {"url": f"{base}/{name}", "schema_ready": False}
    yield state
    with admin.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/test.db"
    return request.getfixturevalue("postgres_database")["url"]


def make_app(database_url, **overrides):
    return create_app({"DATABASE_URL": database_url, **overrides})


def _reset_postgres(state):
    """Schema once per session, then an empty database for each test (faster than DDL)."""
    if not state["schema_ready"]:
        create_schema()
        state["schema_ready"] = True
    tables = ", ".join(f'"{m._meta.table_name}"' for m in ALL_MODELS)
    db.execute_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


@pytest.fixture
def app(request, database_url):
    app = make_app(database_url)
    with app.app_context(), connection():
        if database_url.startswith("postgresql"):
            _reset_postgres(request.getfixturevalue("postgres_database"))
        else:
            create_schema()
    yield app
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()
    elif not db.is_closed():
        db.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def run_db(app):
    """Runs service code outside a request: `run_db(fn, *args)` with a connection open."""

    def run(fn, *args, **kwargs):
        with app.app_context(), connection():
            return fn(*args, **kwargs)

    return run


@pytest.fixture
def load_bundle(run_db):
    """Loads a bundle dict through the real importer (one transaction, as the CLI does)."""
    from app.services.bundle import import_bundle

    return lambda bundle: run_db(import_bundle, bundle)


def bearer(token):
    return {"Authorization": f"Bearer {token}"}
