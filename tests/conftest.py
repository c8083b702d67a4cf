"""The fixtures: a fresh app per test on a temporary SQLite file and on PostgreSQL.

Every test that uses `app` runs twice, `[sqlite]` and `[postgresql]`. The PostgreSQL run
creates its own database for the test session and drops it at the end. When PostgreSQL is
unreachable those runs are skipped, unless REQUIRE_POSTGRES=1 (CI) makes that a failure.
TEST_DATABASES=sqlite (or postgresql) narrows a local run to one backend.
The plain helpers (bearer, assert_error, make_app...) are in tests/helpers.py.

Every JSON answer a test gets is checked against the OpenAPI document (tests/documented.py): a
mismatch fails the test.
"""
import os
import uuid

import pytest

from app.db import connection, db
from tests import documented
from tests.helpers import BACKENDS, PG_ADMIN_URL, emptied_app, loaded_app, pg_admin, recorded_statements

documented.install()


def pytest_runtest_setup(item):
    documented.reported()  # what earlier tests' teardowns answered is theirs


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    mismatches = documented.reported()
    if mismatches:
        pytest.fail(mismatches, pytrace=False)
    return result


@pytest.fixture(scope="session")
def postgres_database():
    """A database of this test session's own on the local PostgreSQL server."""
    admin = pg_admin()
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


@pytest.fixture
def app(request, database_url):
    app = emptied_app(request, database_url)
    yield app
    app.extensions["bulk_queue"].close()
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()
    elif not db.is_closed():
        db.close()


@pytest.fixture
def app_with(request, database_url):
    """Builds apps with settings of their own (`app_with(RATELIMIT_COMPAT_WRITES="3 per minute")`),
    each on the emptied database loaded with the base bundle."""
    yield lambda **settings: loaded_app(request, database_url, **settings)
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()


@pytest.fixture
def statements(app):
    """The SQL statements the test's requests run (the token check included), in a list."""
    with recorded_statements() as seen:
        yield seen


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

