"""The code every request runs reads the request, `g` and the database directly, not through
werkzeug's or peewee's proxies: each attribute read through a proxy first fails on the proxy
(an AttributeError built and formatted) before it is forwarded (app/http/current.py)."""
import os
import sys
from collections import Counter

import app as app_package
from tests.bundles import SELLER, TOKENS
from tests.helpers import bearer

APP_FOLDER = os.path.dirname(app_package.__file__) + os.sep


def proxy_fallbacks(call):
    """{(app file, line): n} of the reads the app's code makes through a proxy's __getattr__
    (werkzeug's LocalProxy resolves it through its _ProxyLookup descriptor, peewee's Proxy by a
    __getattr__ method)."""
    seen = Counter()

    def tracer(frame, event, arg):
        code = frame.f_code
        fallback = code.co_name == "__getattr__" or (
            code.co_name == "__get__" and code.co_filename.endswith(os.path.join("werkzeug", "local.py"))
            and getattr(frame.f_locals.get("self"), "name", None) == "__getattr__")
        caller = frame.f_back
        if event == "call" and fallback and caller.f_code.co_filename.startswith(APP_FOLDER):
            seen[(caller.f_code.co_filename[len(APP_FOLDER):], caller.f_lineno)] += 1

    sys.settrace(tracer)
    try:
        response = call()
    finally:
        sys.settrace(None)
    return response, seen


def test_an_item_read_and_health_make_no_proxy_fallback_in_the_apps_own_code(app_with):
    client = app_with().test_client()
    headers = bearer(TOKENS[SELLER])
    client.get("/items/MLA100", headers=headers)  # warm: first-request setup is not what this is about
    response, seen = proxy_fallbacks(lambda: client.get("/items/MLA100", headers=headers))
    assert response.status_code == 200
    assert seen == Counter()
    response, seen = proxy_fallbacks(lambda: client.get("/health"))
    assert response.status_code == 200
    assert seen == Counter()


def test_the_query_string_hooks_make_no_proxy_fallback_either(app_with):
    """JSONP's and `attributes`' hooks read the arguments of every request that has some (here a
    JSONP callback, and no `attributes` to reduce by)."""
    client = app_with().test_client()
    headers = bearer(TOKENS[SELLER])
    client.get("/items/MLA100?callback=cb", headers=headers)
    for path in ("/items/MLA100?callback=cb", "/health?callback=cb"):
        response, seen = proxy_fallbacks(lambda path=path: client.get(path, headers=headers))
        assert response.status_code == 200 and response.get_data(as_text=True).startswith("/**/cb(")
        assert seen == Counter()


def test_the_tracer_sees_a_fallback_when_there_is_one(app, monkeypatch):
    """The check above is only worth something if it catches one: a hook reading `request.path`
    through the proxy again is reported with its line."""
    from flask import request

    from app.http import hooks

    monkeypatch.setattr(hooks, "current_request", lambda: request)
    with app.test_request_context("/health"):
        _, seen = proxy_fallbacks(hooks.reject_nul_characters)
    assert {file for file, _ in seen} == {os.path.join("http", "hooks.py")} and sum(seen.values()) >= 2
