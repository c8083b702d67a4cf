"""Rate limits, counted in RATELIMIT_STORAGE_URI: the compatibility writes per user, and failed OAuth
client authentications per client_id and per client address.

With the default memory storage each gunicorn worker counts alone; point the setting at
Redis (redis://host:6379) to share the counts across workers and hosts. RATELIMIT_KEY_PREFIX
keeps the counts of deployments that share one Redis apart.

When the storage fails (Redis down, or up but silent past RATELIMIT_STORAGE_TIMEOUT_MS), the
request is served unlimited (RATELIMIT_FAIL_MODE=open) or answered 503 (closed), and a warning
is logged at most once a minute per worker.
"""
import contextlib
import hashlib
import logging
import re
import threading
import time

from flask import current_app, g, request
from flask_limiter import Limiter, RateLimitExceeded
from limits.errors import StorageError
from redis.backoff import NoBackoff
from redis.retry import Retry

from app.errors import ApiError
from app.http.auth import bearer_token, presented_client_id

SAFE_KEY = re.compile(r"[A-Za-z0-9._-]{1,64}")

log = logging.getLogger("app.ratelimit")

FAIL_MODES = ("open", "closed")
WARNING_INTERVAL_S = 60
REDIS_SCHEMES = ("redis://", "rediss://", "redis+unix://")


def rate_limit_key():
    """The user the auth guard resolved: `@blp.auth` wraps the limited view, so it has run, and the
    limit needs no token lookup of its own. Per user, not per token: minting tokens does not reset
    the budget."""
    caller = g.get("caller_id")
    if caller is not None:
        return f"user:{caller}"
    token = bearer_token()
    if token:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return "addr:" + (request.remote_addr or "-")


class Throttle:
    """True at most once per `interval_s`: a dead store fails every request, and one line a
    minute says so without flooding the log."""

    def __init__(self, interval_s, clock=time.monotonic):
        self.interval_s = interval_s
        self.clock = clock
        self._last = None

    def ready(self):
        now = self.clock()
        if self._last is not None and now - self._last < self.interval_s:
            return False
        self._last = now
        return True


def storage_options(config):
    """limits' storage options: errors wrapped as StorageError (told apart from our own bugs), and
    for Redis timeouts of a fraction of a second with no retry. redis-py's defaults wait without
    limit and retry a failed command 10 times, which a Redis that accepts connections but never
    answers turned into seconds on every limited request."""
    options = {"wrap_exceptions": True}
    if config["RATELIMIT_STORAGE_URI"].startswith(REDIS_SCHEMES):
        timeout_s = config["RATELIMIT_STORAGE_TIMEOUT_MS"] / 1000
        options.update(socket_timeout=timeout_s, socket_connect_timeout=timeout_s, retry=Retry(NoBackoff(), 0))
    return options


_checking = threading.local()


class AppLimiter(Limiter):
    """flask-limiter keeps the first key prefix and storage options it ever saw; an app built later
    in the same process (tests, tools) must count under its own, not the previous app's."""

    def init_app(self, app):
        self._key_prefix = ""
        self._storage_options = {}
        self.storage_warnings = Throttle(WARNING_INTERVAL_S)
        if app.config["RATELIMIT_FAIL_MODE"] not in FAIL_MODES:
            raise ValueError(f"RATELIMIT_FAIL_MODE: {app.config['RATELIMIT_FAIL_MODE']!r} is not one of {FAIL_MODES}")
        app.config["RATELIMIT_STORAGE_OPTIONS"] = storage_options(app.config)
        super().init_app(app)

    @property
    def _swallow_errors(self):
        """flask-limiter's swallow_errors, which serves the request unlimited and logs only to its
        own silent logger: off while this thread checks the limits (the failure reaches
        `_check_request_limit` below, which applies the policy), on elsewhere, so a store that
        fails later (the X-RateLimit-* headers read it again) never fails the request."""
        return not getattr(_checking, "active", False)

    @_swallow_errors.setter
    def _swallow_errors(self, value):
        pass  # decided by the property above, whatever the constructor or the config says

    def _check_request_limit(self, callable_name=None, in_middleware=True):
        _checking.active = True
        try:
            super()._check_request_limit(callable_name=callable_name, in_middleware=in_middleware)
        except RateLimitExceeded:
            raise
        except StorageError as exc:
            self._storage_failed(exc.storage_error)
        finally:
            _checking.active = False

    def _storage_failed(self, exc):
        fail_open = current_app.config["RATELIMIT_FAIL_MODE"] == "open"
        if self.storage_warnings.ready():
            log.warning("rate-limit storage unavailable, requests are %s (RATELIMIT_FAIL_MODE=%s; logged at most "
                        "once a minute): %s: %s", "served unlimited" if fail_open else "refused with 503",
                        "open" if fail_open else "closed", type(exc).__name__, str(exc).strip())
        if not fail_open:
            raise ApiError("service_unavailable", "The rate-limit store is unavailable; retry later",
                           headers={"Retry-After": "5"})


limiter = AppLimiter(key_func=rate_limit_key, headers_enabled=True)

# The compatibility writes and the family count share one budget per caller (decisions.md). Its scope
# keeps the storage key it has always had, so a shared Redis's counts carry over a rolling upgrade.
compat_rate_limit = limiter.shared_limit(
    lambda: current_app.config["RATELIMIT_COMPAT_WRITES"], scope="compat_writes")


def _client_key():
    client_id = presented_client_id()
    # A client_id is the attacker's text: keep storage keys short and printable.
    if not SAFE_KEY.fullmatch(client_id):
        client_id = "sha256:" + hashlib.sha256(client_id.encode()).hexdigest()[:32]
    return "client:" + client_id


def _address_key():
    return "addr:" + (request.remote_addr or "-")


def _client_authentication_failed(response):
    # A flag, not the response's status: JSONP (?callback=) turns the 401 into a 200 before this runs.
    return bool(g.get("client_authentication_failed"))


@contextlib.contextmanager
def counting_failed_client_authentications():
    """Around the token exchange: an `invalid_client` answer counts against both limits below."""
    try:
        yield
    except ApiError as exc:
        if exc.error == "invalid_client":
            g.client_authentication_failed = True
        raise


def _failure_limit(setting, key_func, what):
    # Before the request the count is only tested (deduct_when), so a client over its limit is refused
    # even with the right secret until the window ends; after it, only a failure is counted.
    return limiter.shared_limit(
        lambda: current_app.config[setting], scope=f"oauth_failures_{what}", key_func=key_func,
        deduct_when=_client_authentication_failed,
        error_message=lambda: f"of failed client authentications per {what} ({current_app.config[setting]})")


def client_authentication_limits(view):
    """The token endpoint's limits on failed client authentications (AUTH_FAILURES_PER_CLIENT, _PER_ADDRESS)."""
    view = _failure_limit("AUTH_FAILURES_PER_ADDRESS", _address_key, "address")(view)
    return _failure_limit("AUTH_FAILURES_PER_CLIENT", _client_key, "client_id")(view)
