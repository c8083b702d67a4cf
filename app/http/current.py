"""The request and `g` themselves, for the hooks every request runs.

`flask.request.path` asks werkzeug's proxy object for `path` first; the proxy has no such
attribute, so Python builds and formats an AttributeError before the proxy's fallback forwards
the lookup. The hooks made many such lookups per request, and `app.db.db` (peewee's
DatabaseProxy, the same mechanism) more. A hook that takes the object
once reads it directly after that.
"""
from flask import current_app, g, request


def current_request():
    """The request being handled (flask.request without the proxy)."""
    return request._get_current_object()


def current_g():
    """This request's `g` (flask.g without the proxy)."""
    return g._get_current_object()


def view_declaration(endpoint, method, name, default):
    """What the view serving `endpoint` and `method` declares as `name` (its auth, where it reads;
    app/http/smorest.py), `default` when it declares nothing or there is no such view."""
    view = current_app.view_functions.get(endpoint)
    method = "get" if method == "HEAD" else method.lower()  # Flask serves HEAD with the GET view
    return getattr(getattr(getattr(view, "view_class", None), method, view), name, default)
