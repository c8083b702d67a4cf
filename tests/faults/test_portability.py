"""What SQLite takes, PostgreSQL takes (issue 16, C): a catalog written on SQLite, through the import and
the API, exports to a bundle that imports into PostgreSQL unchanged."""
import json

import pytest

from app.db import connection, db
from app.migrations import create_schema
from app.services.bundle import export_bundle, import_bundle, read_bundle
from tests.bundle_data import full_bundle
from tests.bundles import SELLER, TOKENS
from tests.helpers import BACKENDS, assert_error, bearer, empty_schema, make_app

pytestmark = pytest.mark.skipif("postgresql" not in BACKENDS, reason="needs PostgreSQL (TEST_DATABASES)")


def unicode_bundle():
    bundle = full_bundle()
    bundle["items"][0]["title"] = "Pastillas de freno 🚗 delanteras — Gol «Trendline» 日本"
    bundle["products"][1]["name"] += " \u00a0ñandú \U0001F697"
    bundle["exceptions"][0]["comment"] = "Tab\tnewline\nbackslash\\ quote\" \u2028 fin"
    return bundle


def test_an_export_from_sqlite_imports_into_postgresql(request, tmp_path, postgres_database):
    source = make_app(f"sqlite:///{tmp_path}/source.db")
    with source.app_context(), connection():
        create_schema()
        import_bundle(unicode_bundle())
    client = source.test_client()
    seller = bearer(TOKENS[SELLER])
    nul = {"products": [{"id": "MLA90003", "creation_source": "DEFAULT", "note": "ABS\u0000"}]}
    assert_error(client.post("/items/MLA101/compatibilities", json=nul, headers=seller), 400, "invalid_characters")
    added = {"products": [{"id": "MLA90003", "creation_source": "DEFAULT", "note": "Solo ABS 🚗"}]}
    assert client.post("/items/MLA101/compatibilities", json=added, headers=seller).status_code == 200
    with source.app_context(), connection():
        exported = export_bundle()
    data = json.dumps(exported, ensure_ascii=False).encode()

    target = make_app(postgres_database["url"])
    try:
        with target.app_context(), connection():
            empty_schema(request, postgres_database["url"])
            import_bundle(read_bundle(data, target.config["JSON_MAX_DEPTH"]))
            assert export_bundle() == exported
    finally:
        db.obj.close_all()  # the pool's connections, before the session drops the database
