"""Endpoint 2 and family matching: child products only, value_id exact, value_name
case-insensitive, value_ids any of; the count shares the compatibility writes' rate limit."""
import pytest

from tests.bundles import SELLER, TOKENS, base_bundle
from tests.compat.compat_data import SELLER_H, product, url
from tests.helpers import assert_error, bearer, make_app

COUNT = "/catalog_compatibilities/products_search/count_family_products"


@pytest.fixture
def loaded(load_bundle):
    load_bundle(base_bundle())


def count(client, *attributes, domain="MLA-CARS_AND_VANS", headers=SELLER_H):
    return client.post(COUNT, json={"domain_id": domain, "attributes": list(attributes)}, headers=headers)


@pytest.mark.parametrize("attributes, expected", [
    ([{"id": "BRAND", "value_id": "60249"}], 12),
    ([{"id": "BRAND", "value_name": "vOlKsWaGeN"}], 12),
    ([{"id": "MODEL", "value_ids": ["62109", "62200"]}], 12),
    ([{"id": "BRAND", "value_id": "60249"}, {"id": "VEHICLE_YEAR", "value_name": "2015"}], 4),
    ([{"id": "MODEL", "value_name": "Gol"}, {"id": "VEHICLE_YEAR", "value_id": "2010"},
      {"id": "SHORT_VERSION", "value_id": "70002"}], 1),
    ([{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_name": "Hilux"}], 0),
    ([{"id": "COLOR", "value_id": "1"}], 0),
])
def test_count_matches_every_attribute_and_only_child_products(client, loaded, attributes, expected):
    response = count(client, *attributes)
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"count": expected}


def test_count_above_the_product_limit_is_400_with_the_count(app, client, loaded):
    app.config["COMPAT_MAX_PRODUCTS_PER_REQUEST"] = 11
    error = assert_error(count(client, {"id": "BRAND", "value_id": "60249"}), 400, "too_many_products")
    assert "12" in error["message"] and "11" in error["message"]


def test_count_of_unknown_domain_is_404(client, loaded):
    assert_error(count(client, {"id": "BRAND", "value_id": "1"}, domain="MLA-TRUCKS"), 404, "domain_not_found")


@pytest.mark.parametrize("body", [
    {"domain_id": "MLA-CARS_AND_VANS"},
    {"domain_id": "MLA-CARS_AND_VANS", "attributes": []},
    {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND"}]},
    {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_id": "1", "value_name": "x"}]},
    {"attributes": [{"id": "BRAND", "value_id": "1"}]},
])
def test_count_with_incomplete_body_is_400(client, loaded, body):
    assert_error(client.post(COUNT, json=body, headers=SELLER_H), 400, "validation_error")


def test_count_needs_a_token(client, loaded):
    assert_error(count(client, {"id": "BRAND", "value_id": "1"}, headers={}), 401, "invalid_token")


def test_count_and_writes_share_one_rate_limit(database_url, load_bundle):
    from app.db import connection
    from app.services.bundle import import_bundle

    app = make_app(database_url, RATELIMIT_COMPAT_WRITES="3 per minute")
    with app.app_context(), connection():
        import_bundle(base_bundle())
    client = app.test_client()
    headers = bearer(TOKENS[SELLER])
    assert count(client, {"id": "BRAND", "value_id": "60249"}, headers=headers).status_code == 200
    assert client.post(url(), json={"products": [product("MLA90001")]}, headers=headers).status_code == 200
    assert client.delete(url(), headers=headers).status_code == 200
    assert_error(count(client, {"id": "BRAND", "value_id": "60249"}, headers=headers), 429, "local_rate_limited")
    assert_error(client.put(url(), json={"create": {}}, headers=headers), 429, "local_rate_limited")


def test_count_is_two_prepared_statements_after_the_token_check(client, loaded, statements):
    """The domain check with the selectivity probes, then the count: the same answers from SQL
    compiled once per family shape, with each request's values."""
    gol_2010 = [{"id": "MODEL", "value_name": "Gol"}, {"id": "VEHICLE_YEAR", "value_id": "2010"}]
    assert count(client, *gol_2010).get_json()["count"] >= 1
    assert len(statements) == 3, statements
    assert count(client, {"id": "BRAND", "value_id": "60249"}, {"id": "VEHICLE_YEAR", "value_name": "2015"}
                 ).get_json() == {"count": 4}
    assert count(client, {"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_name": "Hilux"}
                 ).get_json() == {"count": 0}


def test_count_reads_the_most_selective_attribute_and_looks_the_others_up(run_db, loaded, monkeypatch):
    """The count is prepared: PostgreSQL's generic plan cannot tell a model from a brand, and
    joined it merge-joined the brand's whole index range (30,200 rows at 1,000,000 products).
    Whatever the values, its plan holds no join: the other attributes are per-product lookups."""
    from psycopg import sql as pgsql

    from app.db import db, is_postgres
    from app.prepared_sql import prepared
    from app.services.compat import families, queries

    seen = []
    execute = queries.execute_prepared

    def recording(key, build, values):
        seen.append(prepared(key, build, values))
        return execute(key, build, values)

    monkeypatch.setattr(queries, "execute_prepared", recording)
    gol_2010 = [{"id": "MODEL", "value_name": "Gol"}, {"id": "VEHICLE_YEAR", "value_id": "2010"},
                {"id": "BRAND", "value_ids": ["60249", "1"]}]
    assert run_db(families.count_family_products, "MLA-CARS_AND_VANS", gol_2010, 200).count == 2
    count_sql, params = seen[-1]

    def plan():
        if not is_postgres():
            return " ".join(row[-1] for row in db.execute_sql("EXPLAIN QUERY PLAN " + count_sql, params))
        numbered = count_sql
        for n in range(1, len(params) + 1):
            numbered = numbered.replace("%s", f"${n}", 1)
        raw = db.connection()
        raw.execute("SET plan_cache_mode = force_generic_plan")
        types = ", ".join({bool: "boolean", int: "integer", str: "text"}[type(p)] for p in params)
        raw.execute(f"PREPARE family_count_plan ({types}) AS {numbered}")
        try:
            arguments = pgsql.SQL(", ").join(pgsql.Literal(p) for p in params).as_string(raw)
            (shown,), = raw.execute(f"EXPLAIN (FORMAT JSON) EXECUTE family_count_plan({arguments})")
            return shown[0]["Plan"]
        finally:
            raw.execute("DEALLOCATE family_count_plan")
            raw.execute("RESET plan_cache_mode")

    def nodes(node):
        yield node
        for child in node.get("Plans", ()):
            yield from nodes(child)

    shown = run_db(plan)
    if isinstance(shown, dict):  # PostgreSQL's JSON plan
        kinds = [(node["Node Type"], node.get("Parent Relationship")) for node in nodes(shown)]
        assert not any("Join" in kind or kind == "Nested Loop" for kind, _ in kinds), kinds
        assert [relation for _, relation in kinds].count("SubPlan") == 2, kinds
    else:
        assert shown.count("CORRELATED SCALAR SUBQUERY") == 2, shown
