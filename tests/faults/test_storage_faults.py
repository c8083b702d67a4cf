"""A full disk, a read-only filesystem and a database server out of space are named as such (issue 30):
in the log line of the request that answers 503 and in `catalog import`'s one-line problem, with no
traceback; the database is left as it was and serves writes again once the fault is gone.

SQLite's faults are real: the database lives on a small tmpfs of the test's own, filled with a file
or remounted read-only, which needs root (CI runs as root). PostgreSQL's full disk cannot be made on
the shared server: its SQLSTATEs are classified here from the driver's own exception classes, and a
database set read-only (as a standby is) stands for a server refusing writes.
"""
import contextlib
import json
import logging
import os
import sqlite3
import subprocess
import sys

import psycopg
import pytest
from peewee import InternalError, OperationalError, ProgrammingError

from app.db import connection, db
from app.db_faults import DISK_FULL, READ_ONLY_FILESYSTEM, READ_ONLY_SERVER, storage_fault
from app.migrations import create_schema
from app.services.bundle import import_bundle
from tests.bundle_data import full_bundle
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.gunicorn_util import ROOT, app_env
from tests.helpers import BACKENDS, assert_error, bearer, loaded_app, make_app

HEADERS = bearer(TOKENS[SELLER])
ADD = {"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}
# Room for the test bundle's database and its WAL, small enough to fill in a moment.
FS_SIZE = "8m"
FULL_LINE = "catalog import: the disk is full (database or temporary files): free space and import again"
READ_ONLY_LINE = ("catalog import: the filesystem holding the database is read-only: make it writable "
                  "and import again")

needs_sqlite = pytest.mark.skipif("sqlite" not in BACKENDS, reason="SQLite on a filesystem of the test's own")


@pytest.fixture
def small_fs(tmp_path):
    """A tmpfs of FS_SIZE mounted for the test, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs the fault suite as root)")
    mount_point = tmp_path / "fs"
    mount_point.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={FS_SIZE}", "tmpfs", str(mount_point)], check=True)
    try:
        yield mount_point
    finally:
        if db.obj is not None and hasattr(db.obj, "close_all"):
            db.obj.close_all()
        subprocess.run(["umount", str(mount_point)], check=True)


def sqlite_app(path):
    """An app on a SQLite database at `path` loaded with the test bundle, no connection left open."""
    app = make_app(f"sqlite:///{path}")
    with app.app_context(), connection():
        create_schema()
        import_bundle(base_bundle())
    db.obj.close_all()
    return app


def fill(directory):
    """A file taking every free block of `directory`'s filesystem."""
    filler = directory / "filler"
    with open(filler, "wb") as f:
        with contextlib.suppress(OSError):
            while True:
                f.write(b"\0" * 65536)
                f.flush()
    assert os.statvfs(directory).f_bavail == 0
    return filler


@contextlib.contextmanager
def app_log():
    """The messages the app logs inside the block (its logger does not propagate to pytest's)."""
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    logger = logging.getLogger("app")
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)


def catalog_import(database_url, bundle, directory):
    """`flask --app wsgi catalog import` of `bundle`, written to a file in `directory`."""
    path = directory / "bundle.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "catalog", "import", str(path)],
                          cwd=ROOT, env=app_env(database_url), capture_output=True, text=True, timeout=120)


def assert_refused_in_one_line(result, line):
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip().splitlines()[-1] == line, result.stderr


def table_rows(path):
    """{table: its rows, sorted}: the whole content of the database, read without writing to it."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted(map(repr, conn.execute(f'SELECT * FROM "{table}"'))) for table in tables}


def integrity(path):
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        return conn.execute("PRAGMA integrity_check").fetchall()


@needs_sqlite
def test_a_full_disk_is_named_in_the_log_and_the_import_and_costs_no_data(small_fs, tmp_path):
    path = small_fs / "marketplace.db"
    app = sqlite_app(path)
    before = table_rows(path)
    filler = fill(small_fs)
    client = app.test_client()

    with app_log() as lines:
        assert_error(client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS),
                     503, "service_unavailable")
    assert any(line.startswith("database unavailable: the disk is full") and "SQLITE_FULL" in line
               for line in lines), lines
    assert not any("cannot rollback" in line for line in lines), lines
    db.obj.close_all()

    assert_refused_in_one_line(catalog_import(f"sqlite:///{path}", full_bundle(), tmp_path), FULL_LINE)
    assert integrity(path) == [("ok",)]
    assert table_rows(path) == before

    os.remove(filler)
    assert client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS).status_code == 200
    db.obj.close_all()
    imported = catalog_import(f"sqlite:///{path}", full_bundle(), tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert integrity(path) == [("ok",)]


@needs_sqlite
def test_a_read_only_filesystem_is_named_as_such(small_fs, tmp_path):
    path = small_fs / "marketplace.db"
    app = sqlite_app(path)
    before = table_rows(path)
    client = app.test_client()
    # A remount needs no file open for writing: the pool's connections are closed first.
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    try:
        with app_log() as lines:
            assert_error(client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS),
                         503, "service_unavailable")
        assert any(line.startswith("database unavailable: the filesystem holding the database is read-only")
                   for line in lines), lines
        db.obj.close_all()
        assert_refused_in_one_line(catalog_import(f"sqlite:///{path}", full_bundle(), tmp_path), READ_ONLY_LINE)
    finally:
        db.obj.close_all()
        subprocess.run(["mount", "-o", "remount,rw", str(small_fs)], check=True)
    assert table_rows(path) == before
    assert client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS).status_code == 200


@pytest.mark.parametrize("error, fault", [
    (psycopg.errors.DiskFull('could not extend file "base/16384/16400": No space left on device'), DISK_FULL),
    # A sort or hash spilling to pgsql_tmp on a full disk: still 53100.
    (psycopg.errors.DiskFull('could not write to file "base/pgsql_tmp/pgsql_tmp123.0"'), DISK_FULL),
    (psycopg.errors.IoError('could not write to file "pg_wal/xlogtemp.12": No space left on device'), DISK_FULL),
    (psycopg.errors.InsufficientPrivilege('could not create file "base/16384/16500": Read-only file system'),
     READ_ONLY_FILESYSTEM),
    (psycopg.errors.ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"), READ_ONLY_SERVER),
])
def test_postgresql_storage_faults_are_told_by_sqlstate_and_the_os_words(error, fault):
    for wrapped in (OperationalError(error), ProgrammingError(error), InternalError(error)):
        assert storage_fault(wrapped) == fault


@pytest.mark.parametrize("error, words", [
    (psycopg.errors.InsufficientResources("could not create shared memory segment"), "insufficient resources"),
    (psycopg.errors.OutOfMemory("out of memory"), "out of memory"),
    (psycopg.errors.TooManyConnections("sorry, too many clients already"), "too many connections"),
    (psycopg.errors.ConfigurationLimitExceeded("too many range table entries"), "configuration limit"),
])
def test_postgresql_resource_shortages_are_named_with_their_sqlstate(error, words):
    fault = storage_fault(OperationalError(error))
    assert fault.what.startswith("the database server is out of resources") and words in fault.what
    assert error.sqlstate in fault.what


@pytest.mark.parametrize("error", [
    psycopg.errors.UniqueViolation("duplicate key value violates unique constraint"),
    psycopg.errors.QueryCanceled("canceling statement due to statement timeout"),
    psycopg.errors.InsufficientPrivilege("permission denied for table item"),
    psycopg.OperationalError("connection refused"),
])
def test_other_postgresql_failures_are_no_storage_fault(error):
    assert storage_fault(OperationalError(error)) is None


@pytest.mark.skipif("postgresql" not in BACKENDS, reason="PostgreSQL's refusal of writes")
def test_a_postgresql_server_refusing_writes_answers_503_and_the_import_says_why(request, tmp_path):
    url = request.getfixturevalue("postgres_database")["url"]
    loaded_app(request, url)
    # Every session of this app refuses writes, as a standby's do; the test session's others do not.
    read_only_url = url + "?options=-c%20default_transaction_read_only%3Don"
    client = make_app(read_only_url).test_client()
    try:
        with app_log() as lines:
            assert_error(client.post("/items/MLA100/compatibilities", json=ADD, headers=HEADERS),
                         503, "service_unavailable")
    finally:
        db.obj.close_all()
    assert any(line.startswith(f"database unavailable: {READ_ONLY_SERVER.what}") and "25006" in line
               for line in lines), lines
    result = catalog_import(read_only_url, full_bundle(), tmp_path)
    assert_refused_in_one_line(result, f"catalog import: {READ_ONLY_SERVER.what}: {READ_ONLY_SERVER.remedy} "
                                       "and import again")
