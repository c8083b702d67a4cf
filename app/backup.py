"""Backups in the database's own format: `db backup` and `db restore` (app/cli.py).

SQLite: VACUUM INTO writes a consistent copy while the service serves, and SQLite's backup API
copies one back into the live file, page by page, in one transaction. PostgreSQL: pg_dump's custom
format (-Fc), restored by pg_restore in one transaction, dropping what the dump recreates. The
password goes to the client tools in PGPASSWORD, never on their command line (which `ps` shows).
`catalog export` is the other backup: portable between the two databases, but slower to restore.
"""
import datetime
import os
import shutil
import sqlite3
import subprocess

from app.db import db, is_postgres

SQLITE_MAGIC, PG_DUMP_MAGIC = b"SQLite format 3\x00", b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; str() says why in one line."""


def backup_path(path):
    """Where a backup goes: PATH, or a new timestamped file when PATH is a folder (a timer's target).
    An existing file is never overwritten."""
    if os.path.isdir(path):
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
        path = os.path.join(path, f"listings-{stamp}.backup")
    if os.path.exists(path):
        raise BackupError(f"{path} exists: a backup never overwrites one; name another file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BackupError(f"the folder {folder} does not exist")
    return path


def backup(path):
    """Write the database to `path` (which must not exist); returns its size in bytes."""
    if is_postgres():
        _run_client("pg_dump", "--format=custom", "--no-owner", f"--file={path}")
    else:
        db.execute_sql("VACUUM INTO ?", (os.path.abspath(path),))
    return os.path.getsize(path)


def kind_of(path):
    """"sqlite" or "postgresql": which database wrote the backup at `path`."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is neither a SQLite database nor a pg_dump custom-format file")


def restore(path):
    """Replace the database's content by the backup at `path`, written by `backup` from the same kind
    of database (to move between SQLite and PostgreSQL: catalog export, then catalog import)."""
    target = "postgresql" if is_postgres() else "sqlite"
    if kind_of(path) != target:
        raise BackupError(f"{path} is a {kind_of(path)} backup and the database is {target}: restore it into "
                          f"{kind_of(path)}, or move data between the two with catalog export and catalog import")
    if target == "postgresql":
        _run_client("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error",
                    f"--dbname={db.obj.database}", path)
        return
    source = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True)
    try:
        source.backup(db.connection())
    finally:
        source.close()


def _run_client(tool, *args):
    """Run pg_dump or pg_restore on the app's PostgreSQL database; one line on failure."""
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed (apt-get install postgresql-client, the server's major version)")
    params = db.obj.connect_params
    env = {**os.environ, "PGDATABASE": db.obj.database, "PGCONNECT_TIMEOUT": str(params.get("connect_timeout", 5))}
    env.update({name: str(params[key]) for key, name in (("host", "PGHOST"), ("port", "PGPORT"), ("user", "PGUSER"),
                                                         ("password", "PGPASSWORD")) if params.get(key)})
    result = subprocess.run([tool, *args], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        errors = [line for line in result.stderr.splitlines() if line.strip()]
        raise BackupError(f"{tool} failed: {errors[0] if errors else f'exit status {result.returncode}'}")
