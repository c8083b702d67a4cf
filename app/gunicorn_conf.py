"""gunicorn settings for production: `gunicorn -c python:app.gunicorn_conf wsgi:app`.

Every value can be overridden from the environment (BIND, PORT, WEB_CONCURRENCY, ...), read through
app/config.py's table like the app's: a bad value stops gunicorn before it starts, naming it. The
master then checks the database's schema once (on_starting) and does not start on one that is not
this code's.
"""
import multiprocessing
import os
import re

from app.config import gunicorn_bind, load_settings
from app.deploy.allocator import fix_malloc_thresholds
from app.readiness import check_schema_at_start, exit_on_bad_settings

with exit_on_bad_settings():
    settings = load_settings()
    bind = gunicorn_bind()
# gunicorn's control socket (for gunicornc) defaults to one path per user, so a second instance on the
# machine took it over and stopping either removed it. One socket per bind address keeps them apart.
control_socket = settings["GUNICORN_CONTROL_SOCKET"] or os.path.join(
    os.environ.get("XDG_RUNTIME_DIR") or os.path.expanduser("~/.gunicorn"),
    "gunicorn-" + re.sub(r"[^A-Za-z0-9.]+", "_", bind).strip("_") + ".ctl")
# Sync workers: the work is database-bound and short; 2 per core plus one is gunicorn's advice.
workers = settings["WEB_CONCURRENCY"] or multiprocessing.cpu_count() * 2 + 1
# gunicorn's sync worker, whose own rejections (request line or headers over the limits below,
# malformed requests) answer the error object instead of an HTML page.
worker_class = "app.deploy.worker.JsonErrorSyncWorker"
timeout = settings["GUNICORN_TIMEOUT"]
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests, bounding slow memory growth.
max_requests = settings["GUNICORN_MAX_REQUESTS"]
max_requests_jitter = 500
accesslog = settings["GUNICORN_ACCESSLOG"]
errorlog = "-"
# The request id the app assigns is in the X-Request-Id response header; logging it here ties
# each access line to the app's error lines for the same request.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s'
# Secrets in URLs (client_secret, code, refresh_token... in a query string) and the Authorization
# header are written as [REDACTED], in access lines and in gunicorn's error lines (app/logs.py).
logger_class = "app.logs.GunicornLogger"
# No preload: each worker builds the app and opens its own database connections after the fork.
preload_app = False
# In the master, which reads this file: every worker it forks starts with the same malloc
# thresholds (app/deploy/allocator.py says why). Not a gunicorn setting, which gunicorn ignores.
malloc_thresholds_fixed = fix_malloc_thresholds()


def on_starting(server):
    """Once, in the master, before it binds or forks: the schema must be this code's."""
    with exit_on_bad_settings():
        check_schema_at_start(settings, server.log)
