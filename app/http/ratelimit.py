"""Rate limits per token (per client address without one), counted in RATELIMIT_STORAGE_URI.

With the default memory storage each gunicorn worker counts alone; point the setting at
Redis (redis://host:6379) to share the counts across workers and hosts. RATELIMIT_KEY_PREFIX
keeps the counts of deployments that share one Redis apart.
"""
import hashlib

from flask import current_app, request
from flask_limiter import Limiter

from app.http.auth import bearer_token


def rate_limit_key():
    token = bearer_token()
    if token:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return "addr:" + (request.remote_addr or "-")


class AppLimiter(Limiter):
    """flask-limiter keeps the first key prefix it ever saw; an app built later in the same
    process (tests, tools) must count under its own prefix, not the previous app's."""

    def init_app(self, app):
        self._key_prefix = ""
        super().init_app(app)


# swallow_errors: when the rate-limit storage (Redis) is unreachable, requests are served
# unlimited and the failure is logged, rather than every limited endpoint answering 500.
limiter = AppLimiter(key_func=rate_limit_key, headers_enabled=True, swallow_errors=True)

# The compatibility writes and the family count share one budget per caller (decisions.md).
compat_writes = limiter.shared_limit(
    lambda: current_app.config["RATELIMIT_COMPAT_WRITES"], scope="compat_writes")
