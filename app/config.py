"""Settings: one declared table (name, kind, default, meaning), read from the environment once at start.

Every setting an operator may change is a row of SETTINGS; its kind parses the environment's string
and says what it accepts. A value that does not parse stops the start with one line naming the
variable, the value and what is accepted (SettingsError): a typo never switches a protection off, it
stops the service instead. README.md's settings table is tested against these rows.
"""
import os
import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from limits import parse_many


class SettingsError(ValueError):
    """Settings the service cannot start with; str() is one line per problem."""

    def __init__(self, problems):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


class Whole:
    """A whole number within bounds."""

    def __init__(self, minimum=0, maximum=None):
        self.minimum, self.maximum = minimum, maximum
        self.accepted = (f"a whole number from {minimum} to {maximum}" if maximum is not None
                         else f"a whole number from {minimum}")

    def parse(self, raw):
        text = raw.strip()
        if not re.fullmatch(r"\d+", text):
            raise ValueError
        number = int(text)
        if number < self.minimum or (self.maximum is not None and number > self.maximum):
            raise ValueError
        return number


class Flag:
    """A boolean: only the words below, so `maybe` is an error rather than false."""

    TRUE, FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
    accepted = "one of true, false, 1, 0, yes, no, on, off"

    def parse(self, raw):
        word = raw.strip().lower()
        if word not in self.TRUE + self.FALSE:
            raise ValueError
        return word in self.TRUE


class Text:
    accepted = "any text"

    def parse(self, raw):
        return raw


class OneOf:
    """One of a few words, in any case; the value is the declared spelling."""

    def __init__(self, *words):
        self.words = words
        self.accepted = "one of " + ", ".join(words)

    def parse(self, raw):
        by_lower = {word.lower(): word for word in self.words}
        if raw.strip().lower() not in by_lower:
            raise ValueError
        return by_lower[raw.strip().lower()]


class RateLimit:
    """A rate limit in the notation of the `limits` library, checked by its own parser."""

    def __init__(self, may_be_empty=False):
        self.may_be_empty = may_be_empty
        self.accepted = ('a rate limit such as "10 per minute" or "100/hour;1000/day"'
                         + (", or empty to switch it off" if may_be_empty else ""))

    def parse(self, raw):
        if self.may_be_empty and not raw.strip():
            return ""
        parse_many(raw)  # ValueError on anything its limiter would not understand
        return raw.strip()


class Origins:
    """Web origins (scheme://host[:port]) separated by commas; empty: none."""

    accepted = "origins such as https://shop.example separated by commas, or empty"
    ORIGIN = re.compile(r"https?://[^/\s,*]+")

    def parse(self, raw):
        origins = [origin.strip().rstrip("/") for origin in raw.replace(",", " ").split()]
        if not all(self.ORIGIN.fullmatch(origin) for origin in origins):
            raise ValueError
        return raw


def shown_url(url):
    """A database URL as messages show it: the password (in the authority or the query) as ***."""
    if url.startswith("sqlite:"):
        return url
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(":" + parts.password + "@", ":***@", 1)
    query = re.sub(r"(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


class DatabaseUrl:
    show = staticmethod(shown_url)
    accepted = ("empty (the SQLite file in instance/), sqlite:///relative/path.db, sqlite:////absolute/path.db "
                "or postgresql://user@host:5432/name")

    def parse(self, raw):
        if raw.strip() and not re.match(r"(sqlite:///.|postgres(ql)?(\+\w+)?://)", raw.strip()):
            raise ValueError
        return raw.strip()


class ReplicaUrls:
    """PostgreSQL URLs separated by commas: the read replicas (app/db_replicas.py)."""

    accepted = "PostgreSQL URLs (postgresql://user@host:5432/name) separated by commas, or empty"

    @staticmethod
    def show(raw):
        return ",".join(shown_url(url.strip()) for url in raw.split(","))

    def parse(self, raw):
        urls = tuple(url.strip() for url in raw.split(",") if url.strip())
        if not all(re.match(r"postgres(ql)?://", url) for url in urls):
            raise ValueError
        return urls


class QueueUrl:
    show = staticmethod(shown_url)
    accepted = "empty (beside the database), sqlite:///path, postgresql://user@host/name or redis://host:6379/0"

    def parse(self, raw):
        if raw.strip() and not re.match(r"(sqlite:///.|postgres(ql)?://|rediss?://)", raw.strip()):
            raise ValueError
        return raw.strip()


@dataclass(frozen=True)
class Setting:
    name: str
    kind: object
    default: object
    meaning: str
    shown_default: str = None  # the README's default, when it is not the value itself

    @property
    def shown(self):
        """The default as README.md's settings table writes it."""
        if self.shown_default is not None:
            return self.shown_default
        if isinstance(self.default, bool):
            return str(self.default).lower()
        if isinstance(self.default, str):
            return f"`{self.default}`" if self.default else "empty"
        return str(self.default)

    def parse(self, raw):
        try:
            return self.kind.parse(raw)
        except ValueError:
            shown = getattr(self.kind, "show", str)(raw)
            raise SettingsError([f"{self.name}={shown!r} is not accepted: expected {self.kind.accepted} "
                                 f"(default: {self.shown.replace('`', '')})"]) from None


SETTINGS = (
    Setting("DATABASE_URL", DatabaseUrl(), "", "where the data is; empty: a SQLite file in the instance folder",
         "SQLite file `instance/marketplace.db`"),
    # Refuse: gunicorn does not start on a database whose migrations differ from the code's, and /health
    # answers 503 meanwhile. Warn: it serves anyway (logged), for an operator who knows why.
    Setting("SCHEMA_CHECK", OneOf("refuse", "warn"), "refuse",
         "refuse to serve a database whose migrations are not this code's, or only warn"),
    Setting("SQLITE_BUSY_TIMEOUT_MS", Whole(), 10000, "how long a SQLite writer waits for the write lock"),
    Setting("SQLITE_CACHE_MB", Whole(1), 16, "SQLite's page cache per connection"),
    # PostgreSQL, per API connection: well below gunicorn's worker timeout (GUNICORN_TIMEOUT), so a stuck
    # query or a lock held too long answers 503 instead of the worker being killed mid-request.
    # 0 turns one off. Operator commands (flask ...) run without them (app/db.py, `connection`).
    Setting("DB_STATEMENT_TIMEOUT_MS", Whole(), 10000, "PostgreSQL: longest statement of a request (0: none)"),
    Setting("DB_LOCK_TIMEOUT_MS", Whole(), 5000, "PostgreSQL: longest wait of a request for a lock (0: none)"),
    # A transaction whose worker froze or lost the network mid-request holds its item's lock, and on
    # PostgreSQL holds back N4's every page (app/services/notifications/feed.py), until the server ends it.
    # The bulk workers keep this one (app/services/bulk/queue.py).
    Setting("DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", Whole(), 10000,
            "PostgreSQL: longest a request's open transaction may wait between statements (0: none)"),
    Setting("DB_CONNECT_TIMEOUT_S", Whole(1), 5, "PostgreSQL: longest wait for a connection"),
    Setting("DB_MAX_CONNECTIONS", Whole(1), 8, "connection pool size per gunicorn worker"),
    Setting("DB_STALE_TIMEOUT_S", Whole(1), 300, "a pooled connection older than this is closed"),
    Setting("DB_PING_AFTER_IDLE_MS", Whole(), 500, "PostgreSQL: a pooled connection idle longer is pinged before use"),
    # Hot standbys of DATABASE_URL (app/db_replicas.py): the reads a view declares reads="replica" go
    # to one of them, unless it lags more than REPLICA_MAX_LAG_MS or does not answer.
    Setting("DATABASE_REPLICA_URLS", ReplicaUrls(), (), "PostgreSQL hot standbys serving the public reads",
            "empty"),
    Setting("REPLICA_MAX_LAG_MS", Whole(), 1000, "a replica further behind the primary is skipped"),
    Setting("ACCESS_TOKEN_TTL_S", Whole(1), 21600, "lifetime of an access token"),
    Setting("REFRESH_TOKEN_TTL_S", Whole(1), 15552000, "lifetime of a refresh token (180 days)"),
    Setting("AUTHORIZATION_CODE_TTL_S", Whole(1), 600, "lifetime of an authorization code"),
    Setting("MAX_CONTENT_LENGTH", Whole(1), 1024 * 1024, "largest request body, in bytes (larger: 413)",
         "1048576 (1 MiB)"),
    Setting("JSON_MAX_DEPTH", Whole(1), 64, "deepest nesting of a JSON body or bundle; the demo bundle's is 14"),
    Setting("COMPAT_MAX_PRODUCTS_PER_REQUEST", Whole(1), 200, "products per compatibility request"),
    Setting("COMPAT_MAX_FAMILIES_PER_REQUEST", Whole(1), 10, "families per compatibility request"),
    Setting("COMPAT_MAX_PER_ITEM", Whole(1), 10000, "compatibilities per item"),
    Setting("SUMMARY_MAX_ITEMS", Whole(1), 100, "items per compatibility summary"),
    Setting("REPUTATION_RED_CLAIMS", Whole(1), 3, "claims from which a compatibility's reputation is RED"),
    Setting("RATELIMIT_ENABLED", Flag(), True, "whether the rate limits apply"),
    Setting("RATELIMIT_STORAGE_URI", Text(), "memory://", "where limits are counted (redis://host:6379 to share)"),
    Setting("RATELIMIT_KEY_PREFIX", Text(), "", "tells apart deployments sharing one Redis"),
    # When the store fails: "open" serves requests unlimited, "closed" answers 503. Either way a
    # warning is logged, at most once a minute per worker.
    Setting("RATELIMIT_FAIL_MODE", OneOf("open", "closed"), "open", "when the limits' store fails: serve or refuse"),
    Setting("RATELIMIT_STORAGE_TIMEOUT_MS", Whole(1), 250, "Redis connect and read timeout, each"),
    Setting("RATELIMIT_COMPAT_WRITES", RateLimit(), "100 per minute", "compatibility writes per user"),
    # Failed client authentications at /oauth/token; past either limit even the right secret answers 429
    # until the window ends. Empty switches one off (per address counts a proxy's address as one).
    Setting("AUTH_FAILURES_PER_CLIENT", RateLimit(may_be_empty=True), "10 per minute",
         "failed client authentications per client_id"),
    Setting("AUTH_FAILURES_PER_ADDRESS", RateLimit(may_be_empty=True), "30 per minute",
         "failed client authentications per client address"),
    Setting("LOG_LEVEL", OneOf("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), "INFO", "the app's log level"),
    Setting("HISTORY_RETENTION_DAYS", Whole(), 365, "`flask history purge` deletes older change records"),
    # Benchmark only: false makes API writes skip their change records (the ETag still changes),
    # to measure what the history costs. Never in production: the history would have holes.
    Setting("HISTORY_ENABLED", Flag(), True, "benchmarks only: false skips the change records"),
    # Origins of the web pages allowed to call the endpoints that take a token (app/http/cors.py).
    # Public endpoints answer any.
    Setting("CORS_ORIGINS", Origins(), "", "origins of the pages that may call the endpoints taking a token"),
    Setting("COMPRESS_MIN_SIZE", Whole(), 500, "answers from this many bytes are gzipped"),
    # Proxies in front of gunicorn that append to X-Forwarded-For (1 behind app/deploy/nginx.conf). The
    # client's address is that many entries from the end; 0 takes the socket's peer and ignores the header.
    Setting("FORWARDED_PROXIES", Whole(), 0, "proxies in front of gunicorn appending to X-Forwarded-For"),
    # Bulk compatibility jobs (extensions.md, J). Only J1 reads bodies above MAX_CONTENT_LENGTH.
    Setting("BULK_MAX_ROWS", Whole(1), 100000, "rows (CSV or JSON Lines lines) of one bulk job's body"),
    Setting("BULK_MAX_BYTES", Whole(1), 50 * 1024 * 1024, "bytes of one bulk job's body", "52428800 (50 MiB)"),
    Setting("BULK_MAX_JOBS_IN_FLIGHT", Whole(1), 3, "bulk jobs QUEUED or RUNNING per seller; past it 429"),
    Setting("BULK_RETENTION_DAYS", Whole(1), 30, "finished jobs and their results are kept this long"),
    # A QUEUED or RUNNING job that made no progress for this long is put on the queue again by the
    # sweep (its enqueue was lost, or its consumer died); each worker sweeps at start and every minute.
    Setting("BULK_STALE_AFTER_S", Whole(), 120, "a job in flight without progress this long is queued again"),
    Setting("BULK_MAX_ATTEMPTS", Whole(1), 5, "times a job is found stale before it is FAILED"),
    Setting("BULK_SLICE_S", Whole(1), 2, "a worker's task works on one job this long, then queues the rest"),
    # An item's rows are applied in a savepoint; one write transaction takes the next items for about
    # this long, so that its commit and the job's counts are paid once for them (0: one item each).
    Setting("BULK_BATCH_MS", Whole(), 0, "a worker's write transaction applies a job's items this long"),
    # The task queue's storage: empty puts it beside the database (a SQLite file next to the
    # embedded one, or tables in DATABASE_URL's PostgreSQL).
    Setting("QUEUE_URL", QueueUrl(), "", "where bulk jobs are queued; empty: beside DATABASE_URL",
            "empty (beside the database)"),
    Setting("QUEUE_NAME", Text(), "marketplace", "keeps deployments sharing one queue storage apart"),
    # Notifications (extensions.md, N), posted by the workers.
    Setting("NOTIFY_TIMEOUT_MS", Whole(1), 500, "a notification's delivery must be acknowledged within this"),
    Setting("NOTIFY_RETRY_WINDOW_S", Whole(1), 3600, "failed notifications are retried this long, then missed"),
    # Tests and a local demo receiver only: production callbacks must not reach the service's own network.
    Setting("NOTIFY_ALLOW_PRIVATE", Flag(), False, "callback URLs may be loopback or private addresses"),
    Setting("NOTIFY_POLL_MS", Whole(10), 200, "how often a worker looks for notifications to post"),
    # gunicorn's own (app/gunicorn_conf.py); the app ignores them.
    Setting("BIND", Text(), "", "gunicorn's address, host:port or unix:/path; empty: 127.0.0.1:PORT",
         "`127.0.0.1:$PORT`"),
    Setting("PORT", Whole(1, 65535), 8000, "gunicorn's port when BIND is empty"),
    Setting("WEB_CONCURRENCY", Whole(1), None, "gunicorn's sync workers; empty: 2 per core plus one",
         "2 × cores + 1"),
    Setting("GUNICORN_TIMEOUT", Whole(1), 30, "seconds before gunicorn kills a silent worker"),
    Setting("GUNICORN_MAX_REQUESTS", Whole(), 10000, "requests after which a worker is replaced (0: never)"),
    Setting("GUNICORN_ACCESSLOG", Text(), "-", "where access lines go (- is stdout)", "`-` (stdout)"),
    Setting("GUNICORN_CONTROL_SOCKET", Text(), "", "gunicorn's control socket; empty: one per bind address",
         "`$XDG_RUNTIME_DIR` (or `~/.gunicorn`) `/gunicorn-<bind>.ctl`"),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}
# PostgreSQL's timeouts of an API connection, each by its setting, set at connect time (app/db.py).
SERVER_TIMEOUTS = {"statement_timeout": "DB_STATEMENT_TIMEOUT_MS", "lock_timeout": "DB_LOCK_TIMEOUT_MS",
                   "idle_in_transaction_session_timeout": "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS"}


def load_settings(environ=None, overrides=None):
    """Defaults, then the environment, then explicit overrides (tests, tools), every one parsed by its
    row; SettingsError names every value that does not parse. An override that is a string is read
    like the environment's, any other is taken as it is."""
    environ = os.environ if environ is None else environ
    settings, problems = {}, []
    given = [(name, environ[name]) for name in BY_NAME if environ.get(name) is not None]
    given += [(name, value) for name, value in (overrides or {}).items()
              if name in BY_NAME and isinstance(value, str)]
    settings.update({setting.name: setting.default for setting in SETTINGS})
    for name, raw in given:
        try:
            settings[name] = BY_NAME[name].parse(raw)
        except SettingsError as exc:
            problems += exc.problems
    if problems:
        raise SettingsError(problems)
    settings.update({name: value for name, value in (overrides or {}).items()
                     if name not in BY_NAME or not isinstance(value, str)})
    if settings["DATABASE_REPLICA_URLS"] and not re.match(r"postgres(ql)?://", settings["DATABASE_URL"] or ""):
        raise SettingsError([f"DATABASE_REPLICA_URLS is set but DATABASE_URL={shown_url(settings['DATABASE_URL'])!r} "
                             "is not PostgreSQL: replicas are hot standbys of a PostgreSQL primary"])
    return settings


def gunicorn_bind(environ=None):
    """Where gunicorn listens: BIND (host:port or unix:path), else 127.0.0.1:PORT (default 8000). One
    function for app/gunicorn_conf.py and for `demo`, which prints it, so the two never disagree.

    Loopback by default: a sync worker is held by a client for as long as it takes to send its request,
    so a few slow clients stop the service. gunicorn is reached through a buffering proxy
    on the same machine (app/deploy/nginx.conf); listening on every interface is a choice, BIND=0.0.0.0:8000."""
    settings = load_settings(environ)
    return settings["BIND"] or f"127.0.0.1:{settings['PORT']}"


def local_url(bind):
    """The address to try a bind at from the same machine (0.0.0.0 listens on 127.0.0.1 too)."""
    if bind.startswith("unix:"):
        return bind
    host, _, port = bind.rpartition(":")
    host = "127.0.0.1" if host in ("", "0.0.0.0", "[::]", "::") else host
    return f"http://{host}:{port}"
