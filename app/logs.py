"""Secrets never reach a log line: OAuth secrets and passwords in URLs, bodies or messages, and the
Authorization header, are replaced by [REDACTED] in the access log and the error logs.

Clients put `client_secret`, `code` or `refresh_token` in the query string (the token endpoint accepts
them there), and a URL is what access lines, gunicorn's warnings and tracebacks quote. The rest of
the line stays, so an operator still sees which client called what: `client_secret=[REDACTED]`.
"""
import logging
import re
from urllib.parse import unquote_plus

from gunicorn import glogging

# `token` too: the app refuses ?token= as an access token in the query string, but it arrived all the same.
SECRET_NAMES = frozenset({"access_token", "client_secret", "refresh_token", "code", "password", "token"})
REDACTED = "[REDACTED]"
_NAMES = "|".join(sorted(SECRET_NAMES, key=len, reverse=True))
# name=value in a URL, a form body or a message; not part of a longer name (error_code=, zip_code=).
_PAIR = re.compile(rf"(?i)(?<![A-Za-z0-9_])({_NAMES})(=)([^&\s'\"<>]*)")
# 'name': 'value', "name": "value" (JSON, a dict's repr) and ('name', 'value') (a MultiDict's repr).
_QUOTED = re.compile(rf"(?i)(([\"'])(?:{_NAMES})\2\s*[:,]\s*)([\"'])((?:\\.|(?!\3).)*)\3")
# The header, as text (Authorization: Bearer x), in a dict's repr or in the WSGI environ (HTTP_AUTHORIZATION).
_AUTHORIZATION = re.compile(r"(?i)(authorization[\"']?\s*[:=,]\s*[\"']?)([^\r\n\"']+)")
# What an access_log_format could name of the secret headers: %({authorization}i)s, %({http_authorization}e)s.
SECRET_ATOMS = ("{authorization}i", "{proxy-authorization}i", "{cookie}i",
                "{http_authorization}e", "{http_proxy_authorization}e", "{http_cookie}e")


def redact_text(text):
    """`text` with every secret value it shows replaced by [REDACTED]."""
    if not isinstance(text, str) or not text:
        return text
    text = _PAIR.sub(lambda m: m.group(1) + m.group(2) + REDACTED, text)
    text = _QUOTED.sub(lambda m: m.group(1) + m.group(3) + REDACTED + m.group(3), text)
    return _AUTHORIZATION.sub(lambda m: m.group(1) + REDACTED, text)


def redact_query(query):
    """A query string with the values of secret parameters replaced, names compared as the app
    decodes them (client%5Fsecret is client_secret too)."""
    if not query:
        return query
    pairs = []
    for pair in query.split("&"):
        name, sep, _ = pair.partition("=")
        pairs.append(f"{name}={REDACTED}" if sep and unquote_plus(name).strip().lower() in SECRET_NAMES else pair)
    return redact_text("&".join(pairs))


def redact_target(target):
    """A request target (path?query) with its query redacted."""
    path, sep, query = (target or "").partition("?")
    return redact_text(path) + sep + redact_query(query) if sep else redact_text(target)


class RedactFilter(logging.Filter):
    """Rewrites a record's message, traceback and stack in place; never drops a record."""

    def filter(self, record):
        message = record.getMessage()
        clean = redact_text(message)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            # The formatter uses exc_text when set: format the traceback once, here, redacted.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.exc_text = redact_text(record.exc_text)
        record.stack_info = redact_text(record.stack_info)
        return True


def add_filter(target):
    """Adds a RedactFilter to a logger or handler once."""
    if not any(isinstance(f, RedactFilter) for f in target.filters):
        target.addFilter(RedactFilter())


class GunicornLogger(glogging.Logger):
    """gunicorn's logger (app/gunicorn_conf.py `logger_class`) with secrets redacted: the request
    line and query of access lines, secret headers, and every error-log message (gunicorn quotes
    the request line of a request it rejects, and the URL of one that failed)."""

    def setup(self, cfg):
        super().setup(cfg)
        add_filter(self.error_log)
        add_filter(self.access_log)

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        method, target = environ.get("REQUEST_METHOD"), redact_target(environ.get("RAW_URI"))
        atoms["r"] = f"{method} {target} {environ.get('SERVER_PROTOCOL')}"
        atoms["q"] = redact_query(atoms.get("q"))
        for key, redact in (("{raw_uri}e", redact_target), ("{request_uri}e", redact_target),
                            ("{query_string}e", redact_query)):
            if key in atoms:
                atoms[key] = redact(atoms[key])
        for key in SECRET_ATOMS:
            if key in atoms:
                atoms[key] = REDACTED
        return atoms
