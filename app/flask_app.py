"""The Flask class the service runs on."""
from contextlib import suppress
from inspect import iscoroutinefunction

from flask import Flask

from app.http.json_provider import OrjsonProvider


class ServiceFlask(Flask):
    """Flask, with orjson writing response bodies (app/http/json_provider.py), and `ensure_sync`
    remembering which functions are coroutines.

    Flask asks it of every hook and view on every request and inspects the function's code flags
    each time, a visible share of a short request such as an item read. A function's kind never
    changes, so it is looked up by the function itself (a bound method's underlying function: views
    are bound anew on every request)."""

    json_provider_class = OrjsonProvider

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._coroutine_functions = {}

    def ensure_sync(self, func):
        key = getattr(func, "__func__", func)
        try:
            is_coroutine = self._coroutine_functions[key]
        except (KeyError, TypeError):  # TypeError: an unhashable callable, asked afresh each time
            is_coroutine = iscoroutinefunction(func)
            with suppress(TypeError):
                self._coroutine_functions[key] = is_coroutine
        return self.async_to_sync(func) if is_coroutine else func
