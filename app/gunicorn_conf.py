"""gunicorn settings for production: `gunicorn -c python:app.gunicorn_conf wsgi:app`.

Every value can be overridden from the environment (PORT, WEB_CONCURRENCY, ...).
"""
import multiprocessing
import os

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# Sync workers: the work is database-bound and short; 2 per core plus one is gunicorn's advice.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
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
# No preload: each worker builds the app and opens its own database connections after the fork.
preload_app = False
