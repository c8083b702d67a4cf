"""SQLite connections are kept per worker: requests borrow one from a pool instead of opening
(and, on close, checkpointing) a connection each."""
from app.db import connection, db
from app.migrations import create_schema
from app.models import Site
from app.services.bundle import import_bundle
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import bearer, make_app


def _load(app):
    with app.app_context(), connection():
        create_schema()
        import_bundle(base_bundle())


def test_sqlite_requests_reuse_one_connection_and_set_its_pragmas_once(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/pool.db")
    _load(app)
    db.obj.close_all()
    opened = []
    set_pragmas = db.obj._set_pragmas
    db.obj._set_pragmas = lambda conn: (opened.append(conn), set_pragmas(conn))
    try:
        client = app.test_client()
        for _ in range(5):
            assert client.get("/items/MLA100", headers=bearer(TOKENS[SELLER])).status_code == 200
            assert db.is_closed()  # returned to the pool at the end of the request
        assert len(opened) == 1
        assert len(db.obj._connections) == 1
        with app.app_context(), connection():
            assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
            assert db.execute_sql("PRAGMA cache_size").fetchone()[0] == -16 * 1024  # SQLITE_CACHE_MB
    finally:
        del db.obj._set_pragmas
        db.obj.close_all()


def test_a_pooled_sqlite_connection_sees_writes_made_through_another(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/pool.db")
    _load(app)
    client = app.test_client()
    assert client.get("/sites/MLA").get_json()["name"] != "Renamed"
    with app.app_context(), connection():
        import_bundle({"sites": [{"id": "MLA", "name": "Renamed", "default_currency_id": "ARS"}]})
    # The request's pooled connection was opened before the write and kept since.
    assert client.get("/sites/MLA").get_json()["name"] == "Renamed"
    with app.app_context(), connection():
        assert Site.get_by_id("MLA").name == "Renamed"
    db.obj.close_all()


def test_none_and_bool_parameters_bind_without_sqlites_adaptation_lookups(tmp_path):
    """app.db registers adapters for None and bool: without them, sqlite3 looks each such
    parameter up through its protocol (an AttributeError formatted per value). They must store
    exactly what sqlite3 stored before: NULL, and the integers 0 and 1."""
    import sqlite3

    import app.db  # noqa: F401  (registers them)

    protocol = sqlite3.PrepareProtocol
    assert sqlite3.adapters[(type(None), protocol)](None) is None
    assert sqlite3.adapters[(bool, protocol)] is int
    connection_ = sqlite3.connect(tmp_path / "adapt.db")
    connection_.execute("CREATE TABLE t (n, b)")
    connection_.executemany("INSERT INTO t VALUES (?, ?)", [(None, True), (None, False)])
    assert connection_.execute("SELECT typeof(n), typeof(b), b FROM t ORDER BY b").fetchall() == [
        ("null", "integer", 0), ("null", "integer", 1)]
    connection_.close()
