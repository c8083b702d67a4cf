"""Settings read from the environment, with defaults that run the demo on one machine."""
import os

# Every setting an operator may change, with its default; the value's type decides how the
# environment string is read, so no setting needs a code edit.
DEFAULTS = {
    "DATABASE_URL": "",  # empty: a SQLite file in the instance folder
    "SQLITE_BUSY_TIMEOUT_MS": 10000,
    "SQLITE_CACHE_MB": 16,
    # PostgreSQL, per API connection: well below gunicorn's worker timeout (GUNICORN_TIMEOUT), so a stuck query
    # or a lock held too long answers 503 instead of the worker being killed mid-request.
    # 0 turns one off. Operator commands (flask ...) run without them (app/db.py, `connection`).
    "DB_STATEMENT_TIMEOUT_MS": 10000,
    "DB_LOCK_TIMEOUT_MS": 5000,
    "DB_CONNECT_TIMEOUT_S": 5,
    "DB_MAX_CONNECTIONS": 8,
    "DB_STALE_TIMEOUT_S": 300,
    "DB_PING_AFTER_IDLE_MS": 500,
    "ACCESS_TOKEN_TTL_S": 21600,
    "REFRESH_TOKEN_TTL_S": 15552000,  # 180 days
    "AUTHORIZATION_CODE_TTL_S": 600,
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    "JSON_MAX_DEPTH": 64,  # nesting of a JSON body or bundle; the demo bundle's deepest is 14
    "COMPAT_MAX_PRODUCTS_PER_REQUEST": 200,
    "COMPAT_MAX_FAMILIES_PER_REQUEST": 10,
    "COMPAT_MAX_PER_ITEM": 10000,
    "SUMMARY_MAX_ITEMS": 100,
    "REPUTATION_RED_CLAIMS": 3,
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_KEY_PREFIX": "",  # tells apart deployments sharing one Redis
    # When the store fails: "open" serves requests unlimited, "closed" answers 503. Either way a
    # warning is logged, at most once a minute per worker.
    "RATELIMIT_FAIL_MODE": "open",
    "RATELIMIT_STORAGE_TIMEOUT_MS": 250,  # Redis connect and read timeout, each
    "RATELIMIT_COMPAT_WRITES": "100 per minute",
    # Failed client authentications at /oauth/token; past either limit even the right secret answers 429
    # until the window ends. Empty switches one off (per address counts a proxy's address as one).
    "AUTH_FAILURES_PER_CLIENT": "10 per minute",
    "AUTH_FAILURES_PER_ADDRESS": "30 per minute",
    "LOG_LEVEL": "INFO",
    "HISTORY_RETENTION_DAYS": 365,  # `flask history purge` deletes older change records
    # Benchmark only: false makes API writes skip their change records (the ETag still changes),
    # to measure what the history costs. Never in production: the history would have holes.
    "HISTORY_ENABLED": True,
    # Origins of the web pages allowed to call the endpoints that take a token (app/http/cors.py),
    # separated by commas: "https://shop.example,https://admin.example". Public endpoints answer any.
    "CORS_ORIGINS": "",
    "COMPRESS_MIN_SIZE": 500,  # bytes from which an answer is gzipped (when the client accepts it)
    # Proxies in front of gunicorn that append to X-Forwarded-For (1 behind app/deploy/nginx.conf). The
    # client's address is that many entries from the end; 0 takes the socket's peer and ignores the header.
    "FORWARDED_PROXIES": 0,
    # Bulk compatibility jobs (extensions.md, J). Only J1 reads bodies above MAX_CONTENT_LENGTH.
    "BULK_MAX_ROWS": 100000,  # lines of one job's body
    "BULK_MAX_BYTES": 50 * 1024 * 1024,
    "BULK_MAX_JOBS_IN_FLIGHT": 3,  # QUEUED or RUNNING per seller; past it J1 answers 429
    "BULK_RETENTION_DAYS": 30,  # finished jobs and their results; the sweep deletes older ones
    # A QUEUED or RUNNING job that made no progress for this long is put on the queue again by the
    # sweep (its enqueue was lost, or its consumer died); each worker sweeps at start and every minute.
    "BULK_STALE_AFTER_S": 120,
    "BULK_MAX_ATTEMPTS": 5,  # times a job is found stale before it is FAILED
    "BULK_SLICE_S": 2,  # a task works on one job this long, then leaves the rest to its successor
    # The task queue's storage: empty puts it beside the database (a SQLite file next to the
    # embedded one, or tables in DATABASE_URL's PostgreSQL); or sqlite:///path, postgresql://...,
    # redis://host:6379/0. QUEUE_NAME keeps deployments sharing one storage apart.
    "QUEUE_URL": "",
    "QUEUE_NAME": "marketplace",
}


def _coerce(default, raw):
    if isinstance(default, bool):
        return raw.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(raw)
    return raw


def load_settings(environ=None, overrides=None):
    """Defaults, then the environment, then explicit overrides (tests, tools)."""
    environ = os.environ if environ is None else environ
    settings = {}
    for key, default in DEFAULTS.items():
        raw = environ.get(key)
        settings[key] = default if raw is None else _coerce(default, raw)
    settings.update(overrides or {})
    return settings


def gunicorn_bind(environ=None):
    """Where gunicorn listens: BIND (host:port or unix:path), else 127.0.0.1:PORT (default 8000). One
    function for app/gunicorn_conf.py and for `demo`, which prints it, so the two never disagree.

    Loopback by default: a sync worker is held by a client for as long as it takes to send its request,
    so a few slow clients stop the service. gunicorn is reached through a buffering proxy
    on the same machine (app/deploy/nginx.conf); listening on every interface is a choice, BIND=0.0.0.0:8000."""
    environ = os.environ if environ is None else environ
    return environ.get("BIND") or f"127.0.0.1:{environ.get('PORT') or '8000'}"


def local_url(bind):
    """The address to try a bind at from the same machine (0.0.0.0 listens on 127.0.0.1 too)."""
    if bind.startswith("unix:"):
        return bind
    host, _, port = bind.rpartition(":")
    host = "127.0.0.1" if host in ("", "0.0.0.0", "[::]", "::") else host
    return f"http://{host}:{port}"
