"""The JSON of every response body, written by orjson.

Encoding with the standard library's json module was a large share of the work of a long
compatibility list, and a share of every other answer; orjson does it in a fraction of that. orjson
writes the same compact text for what our bodies hold (strings, integers, floats, booleans, null,
lists and objects with text keys): the byte-for-byte test of the list (tests/compat/test_list_wire.py)
compares it to Flask's own output.
"""
import orjson
from flask.json.provider import DefaultJSONProvider

# Dates and dataclasses go to Flask's `default` (an HTTP date, asdict) as they did before, instead
# of orjson's own formats; integer keys become text as json.dumps makes them.
OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class OrjsonProvider(DefaultJSONProvider):
    """Flask's provider, its responses written by orjson when they are compact and not ASCII-only
    (the app's settings). Anything orjson refuses (an integer past 64 bits, a lone surrogate) is
    written by Flask's provider as before, so no body fails that did not fail before."""

    def response(self, *args, **kwargs):
        if self.ensure_ascii or self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        options = OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
        try:
            body = orjson.dumps(obj, default=self.default, option=options)
        except orjson.JSONEncodeError:
            return super().response(obj)
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)
