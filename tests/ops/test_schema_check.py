"""The schema is the code's before anything serves (issue 31): gunicorn does not start on a database
behind or ahead of its migrations (one line naming them and `db upgrade`) unless SCHEMA_CHECK=warn,
/health answers 503 while they differ and then stops asking, and `db status` exits 1."""
import subprocess
import sys

import pytest

from app.db import db
from app.migrations import schema_drift
from tests.gunicorn_util import ROOT, Gunicorn, app_env, flask_cli, fresh_database
from tests.helpers import BACKENDS, assert_error

LAST = "0005_attribute_scopes"  # idempotent: its up() checks the column it adds
UPGRADE = "run `flask --app wsgi db upgrade`"


def forget(name):
    db.execute_sql(f"DELETE FROM schema_migration WHERE name = {db.obj.param}", (name,))


def remember(name):
    db.execute_sql(f"INSERT INTO schema_migration (name, applied) VALUES ({db.obj.param}, CURRENT_TIMESTAMP)",
                   (name,))


@pytest.fixture
def one_behind(run_db):
    """The test database with its last migration not applied (as a new release finds it); put back after."""
    run_db(forget, LAST)
    yield
    run_db(forget, LAST)
    run_db(remember, LAST)


def test_health_answers_503_while_a_migration_is_pending_then_stops_asking(client, run_db, one_behind, statements):
    body = assert_error(client.get("/health"), 503, "service_unavailable")
    assert body["message"] == "The database's schema is behind this release; retry later"
    assert client.get("/health").headers["Retry-After"] == "5"
    run_db(remember, LAST)  # what `db upgrade` records
    assert client.get("/health").status_code == 200
    run_db(forget, LAST)
    statements.clear()
    # Passed once: this worker does not read the migrations again, /health is one round trip.
    assert client.get("/health").status_code == 200
    assert statements == ["SELECT 1"]


def test_health_answers_503_on_a_schema_ahead_of_the_code(client, run_db):
    run_db(remember, "0099_from_a_newer_release")
    try:
        body = assert_error(client.get("/health"), 503, "service_unavailable")
        assert "ahead of this release" in body["message"]
    finally:
        run_db(forget, "0099_from_a_newer_release")


def test_health_does_not_check_with_schema_check_warn(app_with, run_db, one_behind):
    assert app_with(SCHEMA_CHECK="warn").test_client().get("/health").status_code == 200


def test_the_drift_names_what_differs(app, run_db, one_behind):
    drift = run_db(schema_drift)
    assert (drift.pending, drift.unknown, bool(drift)) == ([LAST], [], True)
    assert str(drift) == f"the database is 1 migration behind this code (pending: {LAST}): {UPGRADE}"


def gunicorn_start(url, **env):
    """gunicorn as an operator starts it, expected to stop by itself: (exit status, stderr)."""
    result = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "python:app.gunicorn_conf", "wsgi:app"],
                            cwd=ROOT, env=app_env(url, BIND="127.0.0.1:0", **env), capture_output=True, text=True,
                            timeout=60)
    return result.returncode, result.stderr


def sql(url, statement):
    """One statement on the database at `url`, outside any app."""
    if url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            conn.execute(statement)
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


def run_cli(url, *args):
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, env=app_env(url),
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("backend", BACKENDS)
def test_gunicorn_refuses_a_database_one_migration_behind_until_db_upgrade(backend, tmp_path):
    with fresh_database(backend, tmp_path) as url:
        flask_cli(url, "db", "upgrade")
        sql(url, f"DELETE FROM schema_migration WHERE name = '{LAST}'")

        status, errors = gunicorn_start(url)
        assert status == 78, errors
        refusal = [line for line in errors.splitlines() if "not starting" in line]
        assert len(refusal) == 1 and refusal[0].endswith(
            f"not starting: the database is 1 migration behind this code (pending: {LAST}): {UPGRADE} "
            "(SCHEMA_CHECK=warn serves anyway)"), errors
        assert "Traceback" not in errors and "Listening at" not in errors

        listed = run_cli(url, "db", "status")
        assert listed.returncode == 1
        assert f"{LAST}\tpending" in listed.stdout.splitlines()
        assert listed.stderr.strip().splitlines()[-1] == (
            f"Error: the database is 1 migration behind this code (pending: {LAST}): {UPGRADE}")

        with Gunicorn(url, tmp_path, workers=1, SCHEMA_CHECK="warn") as server:
            assert server.request("GET", "/health")[0] == 200
        assert "serving anyway (SCHEMA_CHECK=warn): the database is 1 migration behind" in server.errors()

        flask_cli(url, "db", "upgrade")
        assert run_cli(url, "db", "status").stdout.splitlines()[-1] == "schema current"


def test_gunicorn_refuses_a_database_ahead_of_the_code_and_an_empty_one(tmp_path):
    url = f"sqlite:///{tmp_path}/ahead.db"
    flask_cli(url, "db", "upgrade")
    sql(url, "INSERT INTO schema_migration (name, applied) VALUES ('0099_from_a_newer_release', CURRENT_TIMESTAMP)")
    status, errors = gunicorn_start(url)
    assert status == 78 and ("the database is 1 migration ahead of this code (unknown here: "
                             "0099_from_a_newer_release)") in errors
    listed = run_cli(url, "db", "status")
    assert listed.returncode == 1 and "0099_from_a_newer_release\t" in listed.stdout

    status, errors = gunicorn_start(f"sqlite:///{tmp_path}/empty.db")
    assert status == 78 and f"the database has no tables yet: {UPGRADE}" in errors


def test_gunicorn_starts_while_the_database_is_unreachable_and_health_answers_503(tmp_path):
    with Gunicorn("postgresql://postgres@127.0.0.1:1/nowhere", tmp_path, workers=1) as server:
        assert server.request("GET", "/health")[0] == 503
    assert "schema not checked at start, the database did not answer" in server.errors()
