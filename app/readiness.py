"""Whether this process may serve: its settings parse and the database's schema is the code's.

Both are checked once, when gunicorn's master starts (app/gunicorn_conf.py), before any worker or
request: a bad setting or a schema behind or ahead of the code stops the start with one line. /health
checks the schema again in each worker until it has passed once (a worker started by a reload, or
while the database was unreachable), so a load balancer sends no request to code that would fail on it.
"""
import contextlib
import sys

from app.config import SettingsError

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
