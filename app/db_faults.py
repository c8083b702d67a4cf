"""What a database failure means to an operator: a full disk, a read-only filesystem, a server out of resources.

The drivers report these by code (SQLite's result code, PostgreSQL's SQLSTATE) in words that do not
always say it ("unable to open database file", "disk I/O error"); the request's log line and the
import's problem name the fault, so an operator frees space instead of restarting the database.
"""
import os
import sqlite3
from dataclasses import dataclass

from peewee import SqliteDatabase

from app.db import db


@dataclass(frozen=True)
class StorageFault:
    """`what` went wrong, and what the operator does about it (`remedy`)."""

    what: str
    remedy: str


DISK_FULL = StorageFault("the disk is full (database or temporary files)", "free space")
READ_ONLY_FILESYSTEM = StorageFault("the filesystem holding the database is read-only", "make it writable")
READ_ONLY_FILE = StorageFault("the database file is read-only (its permissions or owner)", "make it writable")
READ_ONLY_SERVER = StorageFault("the database server accepts no writes (a standby, or default_transaction_"
                                "read_only)", "point DATABASE_URL at the primary")

# SQLite's primary result codes (the low byte of an extended one).
SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 8, 10, 13, 14
# PostgreSQL: class 53 is "insufficient resources"; 25006 a write on a read-only transaction (a standby).
PG_DISK_FULL, PG_RESOURCES_CLASS, PG_READ_ONLY_TRANSACTION = "53100", "53", "25006"
PG_RESOURCE_NAMES = {"53000": "insufficient resources", "53200": "out of memory",
                     "53300": "too many connections", "53400": "a configuration limit exceeded"}
# The OS's words PostgreSQL quotes when a file operation fails (strerror), whatever the SQLSTATE:
# a read-only filesystem comes as 42501, as a permission would.
READ_ONLY_WORDS, NO_SPACE_WORDS = "read-only file system", "no space left on device"


def driver_error(exc):
    """The driver's exception behind `exc`: peewee keeps it as `orig`, Python as the cause or context."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, sqlite3.Error) or hasattr(exc, "sqlstate"):
            return exc
        exc = getattr(exc, "orig", None) or exc.__cause__ or exc.__context__
    return None


def storage_fault(exc):
    """The StorageFault `exc` reports, or None for any other failure."""
    error = driver_error(exc)
    if error is None:
        return None
    if isinstance(error, sqlite3.Error):
        # An I/O or open error is told apart by the state of the filesystem holding the file.
        path = db.obj.database if isinstance(db.obj, SqliteDatabase) else None
        return _sqlite_fault(getattr(error, "sqlite_errorcode", None), path)
    return _postgres_fault(error.sqlstate or "", str(error).lower())


def _sqlite_fault(code, path):
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == SQLITE_FULL:
        return DISK_FULL
    if primary not in (SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN):
        return None
    filesystem = _filesystem_state(path)
    if filesystem is not None:
        return filesystem
    return READ_ONLY_FILE if primary == SQLITE_READONLY else None


def _filesystem_state(path):
    """READ_ONLY_FILESYSTEM or DISK_FULL when the filesystem holding `path` is so, else None."""
    if not path:
        return None
    try:
        stats = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return None
    if stats.f_flag & os.ST_RDONLY:
        return READ_ONLY_FILESYSTEM
    if stats.f_bavail == 0:
        return DISK_FULL
    return None


def _postgres_fault(sqlstate, message):
    if sqlstate == PG_DISK_FULL or NO_SPACE_WORDS in message:
        return DISK_FULL
    if READ_ONLY_WORDS in message:
        return READ_ONLY_FILESYSTEM
    if sqlstate == PG_READ_ONLY_TRANSACTION:
        return READ_ONLY_SERVER
    if sqlstate.startswith(PG_RESOURCES_CLASS):
        name = PG_RESOURCE_NAMES.get(sqlstate, "insufficient resources")
        return StorageFault(f"the database server is out of resources ({name}, SQLSTATE {sqlstate})",
                            "free them on the server")
    return None


def describe_failure(exc):
    """The log line's account of a database failure: the fault named first when it is one, then
    the driver's own words and code."""
    error = driver_error(exc) or exc
    code = getattr(error, "sqlite_errorname", None) or getattr(error, "sqlstate", None)
    detail = str(error).strip() + (f" ({code})" if code else "")
    fault = storage_fault(exc)
    return f"{fault.what}: {detail}" if fault else detail
