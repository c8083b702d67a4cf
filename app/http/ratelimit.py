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

from flask import current_app, g, request
from flask_limiter import Limiter, RateLimitExceeded
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage

from app.errors import ApiError
from app.http.auth import bearer_token, presented_client_id
from app.http.current import current_g
from app.log_throttle import Throttle

SAFE_KEY = re.compile(r"[A-Za-z0-9._-]{1,64}")

log = logging.getLogger("app.ratelimit")

FAIL_MODES = ("open", "closed")
REDIS_SCHEMES = ("redis://", "rediss://", "redis+unix://")
# The scope of the counts of failed client authentications (client_authentication_limits).
FAILURE_SCOPE = "oauth_failures_"
# The statuses that tell the client to come back later.
RETRY_STATUSES = (429, 503)


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


def storage_options(config):
    """limits' storage options: errors wrapped as StorageError (told apart from our own bugs), and
    for Redis timeouts of a fraction of a second with no retry. redis-py's defaults wait without
    limit and retry a failed command 10 times, which a Redis that accepts connections but never
    answers turned into seconds on every limited request."""
    options = {"wrap_exceptions": True}
    if config["RATELIMIT_STORAGE_URI"].startswith(REDIS_SCHEMES):
        # Here, not at the top: a worker whose counts are in memory never loads redis-py.
        from redis.backoff import NoBackoff
        from redis.retry import Retry

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
        self.storage_warnings = Throttle()
        if app.config["RATELIMIT_FAIL_MODE"] not in FAIL_MODES:
            raise ValueError(f"RATELIMIT_FAIL_MODE: {app.config['RATELIMIT_FAIL_MODE']!r} is not one of {FAIL_MODES}")
        app.config["RATELIMIT_STORAGE_OPTIONS"] = storage_options(app.config)
        # Registered before flask-limiter's own header hook, so it runs after it.
        app.after_request(retry_after_only_when_refused)
        super().init_app(app)
        manager = self.limit_manager
        # No blueprint is limited here: the limits in force beside the views' own are these.
        self._limits_on_views_only = not (manager.default_limits or manager.application_limits
                                          or app.config.get("RATELIMIT_META"))
        app.teardown_request(self._settle_failure_counts)

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
        if in_middleware and self._limits_on_views_only:
            # flask-limiter's before_request pass checks the limits that are not a view's own
            # (default, application, meta and blueprint limits). Without any, that pass resolves
            # nothing, on every request; a view's own limits are checked by its decorator
            # (in_middleware=False).
            return
        _checking.active = True
        try:
            super()._check_request_limit(callable_name=callable_name, in_middleware=in_middleware)
        except RateLimitExceeded:
            self._note_failure_hits()
            raise
        except StorageError as exc:
            self._storage_failed(exc.storage_error)
        else:
            self._note_failure_hits()
        finally:
            _checking.active = False

    def _note_failure_hits(self):
        """The failure counts this check raised, kept for `_settle_failure_counts`."""
        hits = [hit for hit in getattr(self.context, "view_rate_limits", None) or ()
                if hit.request_args[-1].startswith(FAILURE_SCOPE)]
        if hits:
            g.setdefault("failure_count_hits", []).extend(hits)

    def _settle_failure_counts(self, exc=None):
        """At the end of a token request: each failure count took this request's place before the
        secret was checked; anything but a failed client authentication gives it back."""
        this_g = current_g()  # once, not through the proxy: this runs at the end of every request
        hits = this_g.pop("failure_count_hits", ())
        if this_g.get("client_authentication_failed"):
            return
        for hit in hits:
            try:
                refund(self.storage, hit.key)
            except Exception as error:  # the store failed since the check: the place stays taken
                if self.storage_warnings.ready():
                    log.warning("rate-limit storage unavailable, a count was not given back (logged at most "
                                "once a minute): %s: %s", type(error).__name__, str(error).strip())

    def _storage_failed(self, exc):
        fail_open = current_app.config["RATELIMIT_FAIL_MODE"] == "open"
        if self.storage_warnings.ready():
            log.warning("rate-limit storage unavailable, requests are %s (RATELIMIT_FAIL_MODE=%s; logged at most "
                        "once a minute): %s: %s", "served unlimited" if fail_open else "refused with 503",
                        "open" if fail_open else "closed", type(exc).__name__, str(exc).strip())
        if not fail_open:
            raise ApiError("service_unavailable", "The rate-limit store is unavailable; retry later",
                           headers={"Retry-After": "5"})


def retry_after_only_when_refused(response):
    """flask-limiter sets Retry-After on every limited response, a success too, where clients read
    it as "try again later"; it belongs on a refusal (429, 503) only. X-RateLimit-* stay."""
    if response.status_code not in RETRY_STATUSES:
        response.headers.pop("Retry-After", None)
    return response


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


# Gives back one place of a fixed-window count (the strategy flask-limiter uses by default, and
# the only one the settings offer), never below zero, nor in a window that has ended.
REFUND_SCRIPT = """
local count = tonumber(redis.call('get', KEYS[1]) or '0')
if count > 0 then return redis.call('decr', KEYS[1]) end
return 0
"""


def refund(storage, key):
    """One hit of `key` given back, atomically in the shared storage."""
    if isinstance(storage, RedisStorage):
        storage.get_connection().register_script(REFUND_SCRIPT)(keys=[storage.prefixed_key(key)])
    elif isinstance(storage, MemoryStorage):
        storage.decr(key)


@contextlib.contextmanager
def counting_failed_client_authentications():
    """Around the token exchange: an `invalid_client` answer keeps its place in both counts below.
    A flag, not the response's status: JSONP (?callback=) turns the 401 into a 200."""
    try:
        yield
    except ApiError as exc:
        if exc.error == "invalid_client":
            g.client_authentication_failed = True
        raise


def _failure_limit(setting, key_func, what):
    # Counted and decided in one step of the storage (an INCR in Redis) before the secret is checked,
    # so concurrent guesses each take a place and those past the limit are refused unchecked; a count
    # tested first and raised after the answer let concurrent guesses all pass before any counted.
    # Past the limit the right secret is refused too, until the window ends. Only failures keep their
    # place (AppLimiter._settle_failure_counts).
    return limiter.shared_limit(
        lambda: current_app.config[setting], scope=f"{FAILURE_SCOPE}{what}", key_func=key_func,
        error_message=lambda: f"of failed client authentications per {what} ({current_app.config[setting]})")


def client_authentication_limits(view):
    """The token endpoint's limits on failed client authentications (AUTH_FAILURES_PER_CLIENT, _PER_ADDRESS)."""
    view = _failure_limit("AUTH_FAILURES_PER_ADDRESS", _address_key, "address")(view)
    return _failure_limit("AUTH_FAILURES_PER_CLIENT", _client_key, "client_id")(view)
