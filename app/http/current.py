"""The request and `g` themselves, for the hooks every request runs.

`flask.request.path` asks werkzeug's proxy object for `path` first; the proxy has no such
attribute, so Python builds and formats an AttributeError before the proxy's fallback forwards
the lookup. The hooks made many such lookups per request, and `app.db.db` (peewee's
DatabaseProxy, the same mechanism) more. A hook that takes the object
once reads it directly after that.
"""
from flask import g, request


def current_request():
    """The request being handled (flask.request without the proxy)."""
    return request._get_current_object()


def current_g():
    """This request's `g` (flask.g without the proxy)."""
    return g._get_current_object()
