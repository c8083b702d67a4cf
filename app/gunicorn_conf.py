"""gunicorn settings for production: `gunicorn -c python:app.gunicorn_conf wsgi:app`.

Every value can be overridden from the environment (BIND, PORT, WEB_CONCURRENCY, ...).
"""
import multiprocessing
import os
import re

from app.config import gunicorn_bind

bind = gunicorn_bind()
# gunicorn's control socket (for gunicornc) defaults to one path per user, so a second instance on the
# machine took it over and stopping either removed it. One socket per bind address keeps them apart.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or os.path.join(
    os.environ.get("XDG_RUNTIME_DIR") or os.path.expanduser("~/.gunicorn"),
    "gunicorn-" + re.sub(r"[^A-Za-z0-9.]+", "_", bind).strip("_") + ".ctl")
# Sync workers: the work is database-bound and short; 2 per core plus one is gunicorn's advice.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# gunicorn's sync worker, whose own rejections (request line or headers over the limits below,
# malformed requests) answer the error object instead of an HTML page.
worker_class = "app.deploy.worker.JsonErrorSyncWorker"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests, bounding slow memory growth.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 10000))
max_requests_jitter = 500
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
# The request id the app assigns is in the X-Request-Id response header; logging it here ties
# each access line to the app's error lines for the same request.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s'
# Secrets in URLs (client_secret, code, refresh_token... in a query string) and the Authorization
# header are written as [REDACTED], in access lines and in gunicorn's error lines (app/logs.py).
logger_class = "app.logs.GunicornLogger"
# No preload: each worker builds the app and opens its own database connections after the fork.
preload_app = False
