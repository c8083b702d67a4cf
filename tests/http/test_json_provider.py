"""Response bodies are written by orjson (app/http/json_provider.py): the same bytes Flask's own
provider writes with the app's settings, and Flask's provider wherever orjson refuses a value."""
import dataclasses
import datetime
import uuid

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider

from app import create_app
from app.http.json_provider import OrjsonProvider


@dataclasses.dataclass
class Point:
    x: int


BODIES = [
    {"products": [{"id": "a", "note": "Línea 1\nLínea 2\t\"citada\" \\ \x01 \u2028 ñ 🚗", "count": 3,
                   "ratio": 0.1, "price": 10000.0, "big": 2**63 - 1, "neg": -7, "ok": True, "none": None}],
     "empty": {}, "list": []},
    [1, "two", None],
    {1: "integer key", "when": datetime.datetime(2026, 11, 26, 12, 0), "day": datetime.date(2026, 11, 26),
     "id": uuid.UUID(int=5), "point": Point(3)},
    {"huge": 2**70},  # past 64 bits: orjson refuses it, Flask's provider writes it
    None,
]


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('json')}/unused.db"})
    reference = Flask("reference")
    reference.json = DefaultJSONProvider(reference)
    reference.json.sort_keys, reference.json.ensure_ascii = app.json.sort_keys, app.json.ensure_ascii
    return app, reference


@pytest.mark.parametrize("body", BODIES, ids=["list", "array", "defaults", "huge", "null"])
def test_bodies_are_the_bytes_flask_writes(apps, body):
    app, reference = apps
    assert isinstance(app.json, OrjsonProvider)
    with app.app_context(), reference.app_context():
        ours, theirs = app.json.response(body), reference.json.response(body)
    assert ours.get_data() == theirs.get_data()
    assert ours.mimetype == theirs.mimetype == "application/json"


def test_debug_output_is_indented_as_flask_indents_it(apps):
    app, reference = apps
    app.debug = reference.debug = True
    try:
        with app.app_context(), reference.app_context():
            assert app.json.response({"a": [1]}).get_data() == reference.json.response({"a": [1]}).get_data()
            assert b"\n  " in app.json.response({"a": [1]}).get_data()
    finally:
        app.debug = reference.debug = False
