"""The production app with each client secret check slowed, for tests/faults/test_oauth_abuse.py: every
guess of a burst is in flight at once, as on a loaded host, so a count raised only after the answer
would let them all through. gunicorn builds it with `tests.faults.slow_secret_wsgi:slow_app()`."""
import time

from app import create_app
from app.services.auth import tokens

SECRET_CHECK_S = 0.3


def slowed(check, seconds=SECRET_CHECK_S):
    def slow_check(*args, **kwargs):
        time.sleep(seconds)
        return check(*args, **kwargs)

    return slow_check


def slow_app():
    tokens._authenticate_client = slowed(tokens._authenticate_client)
    return create_app()
