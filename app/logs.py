"""Secrets never reach a log line: OAuth secrets and passwords in URLs, bodies or messages, and the
Authorization header, are replaced by [REDACTED] in the access log and the error logs.

Clients put `client_secret`, `code` or `refresh_token` in the query string (the token endpoint accepts
them there), and a URL is what access lines, gunicorn's warnings and tracebacks quote. The rest of
the line stays, so an operator still sees which client called what: `client_secret=[REDACTED]`.
"""
import logging
import re
import unicodedata
from urllib.parse import unquote_plus

from gunicorn import glogging

# `token` too: the app refuses ?token= as an access token in the query string, but it arrived all the same.
SECRET_NAMES = frozenset({"access_token", "client_secret", "refresh_token", "code", "password", "token"})
REDACTED = "[REDACTED]"
# A name as compared: letters and digits only, case folded. A client may spell a name any way a
# parser might still read it (client%5Fsecret, CLIENT_SECRET, client_secret%00, client_secret+), and
# whatever the app makes of it, its value is a secret the log must not keep.
_FOLDED = {"".join(c for c in name if c.isalnum()) for name in SECRET_NAMES}
# The escapes a repr or JSON writes for a control character or a space: \x00, \u0000, \t.
_ESCAPES = re.compile(r"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|[0abfnrtv])")
# Decodings of a name tried: a proxy may have encoded it once more (client%255Fsecret).
MAX_DECODINGS = 3
# name=value in a URL, a form body or a message: the name is the run of text before `=` (what stops
# it stops a name in a URL, a form or a sentence; control characters do not, a name may hold them),
# the value runs to the next separator.
_NAME = re.compile(r"[^ \r\n&?=;/'\"<>:,()\[\]{}]+(?==)")
_VALUE = re.compile(r"[^& \t\r\n'\"<>]*")
# 'name': 'value', "name": "value" (JSON, a dict's repr) and ('name', 'value') (a MultiDict's repr).
_QUOTED = re.compile(r"(([\"'])((?:\\.|(?!\2).){1,200}?)\2\s*[:,]\s*)([\"'])((?:\\.|(?!\4).)*)\4")
# The header, as text (Authorization: Bearer x), in a dict's repr or in the WSGI environ (HTTP_AUTHORIZATION).
_AUTHORIZATION = re.compile(r"(?i)(authorization[\"']?\s*[:=,]\s*[\"']?)([^\r\n\"']+)")
# What an access_log_format could name of the secret headers: %({authorization}i)s, %({http_authorization}e)s.
SECRET_ATOMS = ("{authorization}i", "{proxy-authorization}i", "{cookie}i",
                "{http_authorization}e", "{http_proxy_authorization}e", "{http_cookie}e")


def is_secret_name(name):
    """Whether `name`, however spelled (percent-encoded in any case, with control characters,
    spaces or `+`, in any letter case or Unicode compatibility form), names a secret."""
    for _ in range(MAX_DECODINGS):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    name = unicodedata.normalize("NFKC", _ESCAPES.sub("", name))
    return "".join(c for c in name if c.isalnum()).casefold() in _FOLDED


def redact_text(text):
    """`text` with every secret value it shows replaced by [REDACTED]."""
    if not isinstance(text, str) or not text:
        return text
    text = _redact_pairs(text)
    text = _QUOTED.sub(lambda m: m.group(1) + m.group(4) + REDACTED + m.group(4) if is_secret_name(m.group(3))
                       else m.group(0), text)
    return _AUTHORIZATION.sub(lambda m: m.group(1) + REDACTED, text)


def _redact_pairs(text):
    """`text` with the value of every name=value pair whose name is a secret's replaced. Only the
    secrets' values are passed over: a pair before may hold the next one in its value (a URL
    quoted as `url=https://host/cb?code=x`)."""
    parts, end = [], 0
    for name in _NAME.finditer(text):
        if name.start() < end or not is_secret_name(name.group()):
            continue
        value = name.end() + 1
        parts += [text[end:value], REDACTED]
        end = _VALUE.match(text, value).end()
    return "".join(parts) + text[end:] if parts else text


def redact_query(query):
    """A query string with the values of secret parameters replaced, their names compared as
    `is_secret_name` does (client%5Fsecret is client_secret too)."""
    if not query:
        return query
    pairs = []
    for pair in query.split("&"):
        name, sep, _ = pair.partition("=")
        pairs.append(f"{name}={REDACTED}" if sep and is_secret_name(name) else pair)
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
