"""Prepared queries (app.prepared_sql.prepared): compiled once, run with each call's values by name. The item
read (endpoint 3) and the token lookup keep their compiled SQL, never the data they read."""
import pytest

from app import prepared_sql
from app.db import db
from app.models import AccessToken, Compatibility, Item
from app.prepared_sql import param, prepared
from app.services.auth.tokens import create_access_token, digest
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import bearer

AUTH = bearer(TOKENS[SELLER])


def _seller_items(builds):
    """A query whose params appear in the SQL in another order than the values dict's, next to a
    constant (the status) that is not a param."""
    def build():
        builds.append(1)
        return (Item.select(Item.id).where((Item.status == "active") & (Item.seller == param("seller"))
                                           & (Item.id != param("except"))).order_by(Item.id))
    return build


@pytest.mark.parametrize("cache_limit", [None, 0])
def test_params_take_each_call_values_by_name(run_db, load_bundle, monkeypatch, cache_limit):
    load_bundle(base_bundle())
    monkeypatch.setattr(prepared_sql, "_prepared", {})
    if cache_limit is not None:  # a full cache: compiled per call, with the same answers
        monkeypatch.setattr(prepared_sql, "MAX_PREPARED", cache_limit)
    builds = []

    def ids(seller, excluded):
        sql, params = prepared("seller_items", _seller_items(builds), {"except": excluded, "seller": seller})
        return [row[0] for row in db.execute_sql(sql, params).fetchall()]

    def expected(seller, excluded):
        return [i.id for i in Item.select().where((Item.status == "active") & (Item.seller == seller)
                                                   & (Item.id != excluded)).order_by(Item.id)]

    for seller, excluded in ((SELLER, "MLA100"), (SELLER, "MLA101"), (999_999, "MLA100")):
        assert run_db(ids, seller, excluded) == run_db(expected, seller, excluded)
    assert len(run_db(ids, SELLER, "MLA100")) > 1 and run_db(ids, 999_999, "MLA100") == []
    assert len(builds) == (1 if cache_limit is None else 5)
    assert len(prepared_sql._prepared) == (1 if cache_limit is None else 0)


def test_a_missing_value_is_an_error_not_a_stale_one(run_db):
    with pytest.raises(KeyError):
        run_db(prepared, "compat_by_item", lambda: Compatibility.select().where(
            Compatibility.item == param("item")), {})


def test_item_read_sees_a_changed_item_and_missing_ones(client, load_bundle):
    bundle = base_bundle()
    load_bundle(bundle)
    first = client.get("/items/MLA100", headers=AUTH).get_json()
    assert first["id"] == "MLA100" and first["site_id"] == "MLA" and first["seller_id"] == SELLER
    record = next(i for i in bundle["items"] if i["id"] == "MLA100")
    load_bundle({"items": [{**record, "title": "Pastillas cerámicas"}]})
    again = client.get("/items/MLA100", headers=AUTH).get_json()
    assert again["title"] == "Pastillas cerámicas"
    assert {k: v for k, v in again.items() if k not in ("title", "last_updated")} == \
        {k: v for k, v in first.items() if k not in ("title", "last_updated")}
    missing = client.get("/items/MLA999999", headers=AUTH)
    assert missing.status_code == 404 and missing.get_json()["error"] == "item_not_found"
    assert any(key[0] == "access_token_and_item" for key in prepared_sql._prepared)  # compiled once, kept


def test_token_lookup_sees_a_revoked_or_new_token(client, run_db, load_bundle):
    load_bundle(base_bundle())
    token = run_db(create_access_token, SELLER)
    assert client.get("/items/MLA999999", headers=bearer(token)).status_code == 404
    run_db(lambda: AccessToken.update(revoked=True).where(AccessToken.token_hash == digest(token)).execute())
    response = client.get("/items/MLA999999", headers=bearer(token))
    assert response.status_code == 401 and response.get_json()["error"] == "invalid_token"


def test_item_routes_read_the_token_and_the_item_in_one_statement(client, load_bundle, statements):
    load_bundle(base_bundle())
    del statements[:]
    assert client.get("/items/MLA100", headers=AUTH).get_json()["id"] == "MLA100"
    assert client.get("/items/MLA999999", headers=AUTH).status_code == 404
    assert len(statements) == 2, statements
    listed = client.get("/items/MLA100/compatibilities", headers=AUTH)
    del statements[:]
    again = client.get("/items/MLA100/compatibilities", headers={**AUTH, "If-None-Match": listed.headers["ETag"]})
    assert again.status_code == 304 and len(statements) == 1, statements


def test_an_item_read_with_the_token_serves_only_its_own_request(client, run_db, load_bundle):
    """The row read with the token answers the request's own item reads, and never a later
    request's: a dead token is refused even right after a request that read the item."""
    load_bundle(base_bundle())
    token = run_db(create_access_token, SELLER)
    assert client.get("/items/MLA100", headers=bearer(token)).status_code == 200
    run_db(lambda: AccessToken.update(revoked=True).where(AccessToken.token_hash == digest(token)).execute())
    assert client.get("/items/MLA100", headers=bearer(token)).status_code == 401
    assert client.get("/items/MLA100/compatibilities", headers=bearer(token)).status_code == 401
    load_bundle({"items": [{**next(i for i in base_bundle()["items"] if i["id"] == "MLA100"), "title": "Otro"}]})
    assert client.get("/items/MLA100", headers=AUTH).get_json()["title"] == "Otro"


def first_site(rows):
    return rows[0].site.id, rows[0].site.language


def test_prepared_instances_are_what_model_raw_builds(run_db, load_bundle):
    """Fields through their python_value, aliases and joined columns as attributes, nothing dirty
    or cached, and the same on a second run (the column mapping kept from the first)."""
    from peewee import JOIN

    from app.models import Site
    from app.prepared_rows import prepared_instances

    load_bundle(base_bundle())

    def build():
        return (Item.select(Item, Site.language, Item.seller.alias("seller_alias"))
                .join(Site, JOIN.LEFT_OUTER, on=(Item.site == Site.id))
                .where(Item.seller == param("seller")).order_by(Item.id))

    def both(seller):
        sql, params = prepared("instances_vs_raw", build, {"seller": seller})
        return (run_db(lambda: prepared_instances(Item, "instances_vs_raw", build, {"seller": seller})),
                run_db(lambda: list(Item.raw(sql, *params))))

    for _ in range(2):
        ours, raw = both(SELLER)
        assert len(ours) == len(raw) > 1
        for mine, theirs in zip(ours, raw, strict=True):
            assert mine.__data__ == theirs.__data__
            # Of the same types too (1 == 1.0 == True): the fields read without python_value included.
            assert {k: type(v) for k, v in mine.__data__.items()} == {k: type(v) for k, v in theirs.__data__.items()}
            assert (mine.language, mine.seller_alias) == (theirs.language, theirs.seller_alias)
            assert mine.language and mine._dirty == set()
            assert type(mine) is Item and mine.__rel__ == theirs.__rel__ == {}
        # A foreign key holds the raw id, and its related row is read when asked for, as peewee's own.
        assert run_db(first_site, ours) == run_db(first_site, raw)
    assert both(-1) == ([], [])


def test_generic_plans_give_the_connection_its_setting_back_even_after_a_failure(run_db):
    """app.prepared_sql.generic_plans: the setting is the connection's, which goes back to the pool; a statement
    that fails inside leaves the server's plan_cache_mode as it was for the next one."""
    from app.db import is_postgres
    from app.prepared_sql import generic_plans

    def mode():
        return db.execute_sql("SHOW plan_cache_mode").fetchone()[0] if is_postgres() else None

    def run(fail):
        with generic_plans():
            inside = mode()
            if fail:
                db.execute_sql("SELECT * FROM no_such_table")
        return inside

    postgres = run_db(is_postgres)
    assert run_db(run, False) == ("force_generic_plan" if postgres else None)
    with pytest.raises(Exception, match="no_such_table"):
        run_db(run, True)
    assert run_db(mode) == ("auto" if postgres else None)
