"""Whether this process may serve: its settings parse and the database's schema is the code's.

Both are checked once, when gunicorn's master starts (app/gunicorn_conf.py), before any worker or
request: a bad setting or a schema behind or ahead of the code stops the start with one line. /health
checks the schema again in each worker until it has passed once (a worker started by a reload, or
while the database was unreachable), so a load balancer sends no request to code that would fail on it.
"""
import contextlib
import logging
import os
import sys

from flask import current_app
from flask.sansio.scaffold import find_package

from app.config import SettingsError
from app.db import default_sqlite_url, make_database
from app.errors import ApiError
from app.migrations import schema_drift

log = logging.getLogger("app.readiness")

# sysexits' EX_CONFIG: what the process exits with on a start-up error, told apart from a crash, so
# that a supervisor does not restart it in a loop (app/deploy/systemd: RestartPreventExitStatus).
EXIT_CONFIG = 78


@contextlib.contextmanager
def exit_on_bad_settings():
    """Around what reads the settings at start: a SettingsError is its lines on stderr and exit 78."""
    try:
        yield
    except SettingsError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None


def instance_path():
    """Flask's instance folder of the `app` package, the embedded SQLite file's folder."""
    prefix, package_path = find_package("app")
    return os.path.join(package_path, "instance") if prefix is None else os.path.join(prefix, "var", "app-instance")


def database_url(settings):
    return settings["DATABASE_URL"] or default_sqlite_url(instance_path())


def check_schema_at_start(settings, logger):
    """In gunicorn's master, before it forks: exit 78 with one line when the schema is not the code's
    (SCHEMA_CHECK=warn: a warning). An unreachable database is a warning too: it may be starting, the
    workers answer 503 until it is back, and /health checks the schema then."""
    database = make_database(database_url(settings), settings)
    try:
        database.connect()
        drift = schema_drift(database)
    except Exception as exc:  # any driver's error: the schema is checked by /health once it answers
        logger.warning("schema not checked at start, the database did not answer (%s); /health answers 503 "
                       "until it does and the schema is this code's", one_line(exc))
        return
    finally:  # no connection may outlive the fork: each worker opens its own
        if not database.is_closed():
            database.close()
        if hasattr(database, "close_all"):
            database.close_all()
    if not drift:
        return
    if settings["SCHEMA_CHECK"] == "warn":
        logger.warning("serving anyway (SCHEMA_CHECK=warn): %s", drift)
        return
    logger.error("not starting: %s (SCHEMA_CHECK=warn serves anyway)", drift)
    raise SystemExit(EXIT_CONFIG)


def require_current_schema():
    """/health's check: 503 while the schema is not the code's. Once it has passed, this worker does
    not ask again: a schema only changes by `db upgrade`, which a release runs before its workers start."""
    app = current_app._get_current_object()  # not through the proxy (app/http/current.py)
    if app.extensions.get("schema_current") or app.config["SCHEMA_CHECK"] == "warn":
        return
    drift = schema_drift()
    if drift:
        if not app.extensions.get("schema_drift_logged"):
            app.extensions["schema_drift_logged"] = True
            log.error("/health answers 503: %s", drift)
        side = "behind" if drift.pending else "ahead of"
        raise ApiError("service_unavailable", f"The database's schema is {side} this release; retry later",
                       headers={"Retry-After": "5"})
    app.extensions["schema_current"] = True


def one_line(exc):
    """An exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0].strip()}" if text else type(exc).__name__
