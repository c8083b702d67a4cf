"""ServiceFlask.ensure_sync remembers each function's kind: plain functions and views bound anew
on every request come back as they are, and a coroutine function is still handed to Flask's
async wrapper, however often it is asked."""
from app.flask_app import ServiceFlask


class View:
    def get(self):
        return "ok"


def test_plain_functions_and_bound_methods_come_back_unchanged():
    app = ServiceFlask(__name__)

    def hook():
        return None

    assert app.ensure_sync(hook) is hook
    assert app.ensure_sync(hook) is hook
    first, second = View().get, View().get
    assert app.ensure_sync(first) is first and app.ensure_sync(second) is second
    assert len(app._coroutine_functions) == 2  # the hook and View.get, not one entry per instance


def test_coroutine_functions_are_still_wrapped_every_time(monkeypatch):
    app = ServiceFlask(__name__)
    wrapped = []
    monkeypatch.setattr(app, "async_to_sync", lambda func: wrapped.append(func) or "wrapped")

    async def view():
        return "ok"

    assert app.ensure_sync(view) == "wrapped" and app.ensure_sync(view) == "wrapped"
    assert wrapped == [view, view]
