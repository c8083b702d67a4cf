"""Chart search (endpoint 25) runs SQL compiled once per shape: the cached SQL never keeps the
values of an earlier request, and a page past the end still reports the total."""
import importlib

import pytest

from app.db import db
from tests.charts.test_search import AUTH, MEN_ADIDAS, ids, loaded, search  # noqa: F401

app_db = importlib.import_module("app.db")  # the module: `app.db` names the database handle
WOMEN_NIKE = [{"id": "GENDER", "values": [{"name": "Mujer"}]}, {"id": "BRAND", "values": [{"name": "Nike"}]}]


@pytest.fixture
def statements(monkeypatch):
    """The SQL statements the requests run (the token lookup included)."""
    seen = []
    execute = db.obj.execute_sql

    def counting(sql, params=None, *args, **kwargs):
        seen.append(sql)
        return execute(sql, params, *args, **kwargs)

    monkeypatch.setattr(db.obj, "execute_sql", counting)
    return seen


def test_same_shape_with_other_values_finds_other_charts(client):
    men = ids(search(client))
    women = ids(search(client, attributes=WOMEN_NIKE))
    assert men == ["100", "200", "201", "300"] and women != men
    assert ids(search(client)) == men


def test_page_past_the_end_still_reports_the_total(client):
    body = search(client, query={"limit": 2, "offset": 10}).get_json()
    assert body == {"charts": [], "paging": {"total": 4, "offset": 10, "limit": 2}}
    assert search(client, query={"limit": 2, "offset": 3}).get_json()["paging"]["total"] == 4


def test_search_runs_three_queries_with_the_token_lookup(client, statements):
    assert ids(search(client)) == ["100", "200", "201", "300"]
    assert len(statements) == 3, statements


def test_unusual_shapes_past_the_cache_limit_are_compiled_per_request(client, monkeypatch):
    monkeypatch.setattr(app_db, "MAX_PREPARED", 0)
    monkeypatch.setattr(app_db, "_prepared", {})
    assert ids(search(client)) == ["100", "200", "201", "300"]
    assert ids(search(client, attributes=WOMEN_NIKE)) != ["100", "200", "201", "300"]
    assert app_db._prepared == {}
