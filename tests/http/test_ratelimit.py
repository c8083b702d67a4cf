"""Rate limits (decisions.md): the compatibility writes and the family count share one budget per
user (whatever token it sends: tests/faults/test_oauth_abuse.py mints new ones), 100 a minute by
default; past it 429 `local_rate_limited` with `Retry-After`.

Counted in memory (per process) or in Redis (shared by every worker and host). Each Redis test
counts under its own RATELIMIT_KEY_PREFIX and deletes only its own keys afterwards. Without Redis
those tests are skipped, unless REQUIRE_REDIS=1 makes that a failure.
"""
import os
import uuid

import pytest
import redis

from app.http.ratelimit import limiter
from tests.bundles import OTHER_SELLER, SELLER, TOKENS, base_bundle
from tests.gunicorn_util import Gunicorn, free_port, fresh_database, load_database
from tests.helpers import bearer

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
COUNT_PATH = "/catalog_compatibilities/products_search/count_family_products"
FORD = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Ford"}]}
SELLER_H = bearer(TOKENS[SELLER])


@pytest.fixture
def redis_prefix():
    """A key prefix of this test's own in the shared Redis; its keys are removed afterwards."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as exc:
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis required but unreachable at {REDIS_URL}: {exc}")
        client.close()
        pytest.skip(f"Redis unreachable at {REDIS_URL}: {exc}")
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield prefix
    keys = list(client.scan_iter(match=f"*/{prefix}/*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def limited_app(app_with):
    """Builds an app with a budget of 3 compatibility writes a minute (more settings by keyword),
    on a fresh database loaded with the base bundle."""
    return lambda **settings: app_with(RATELIMIT_COMPAT_WRITES="3 per minute", **settings)


def count(client, headers=SELLER_H):
    return client.post(COUNT_PATH, json=FORD, headers=headers)


def assert_rate_limited(response, limit):
    body = response.get_json()
    assert response.status_code == 429, body
    assert body["error"] == "local_rate_limited" and body["status"] == 429 and body["cause"] == []
    assert f"{limit} per 1 minute" in body["message"]
    assert 0 < int(response.headers["Retry-After"]) <= 60
    assert response.headers["X-RateLimit-Limit"] == str(limit)
    assert response.headers["X-RateLimit-Remaining"] == "0"


def test_memory_storage_answers_429_with_retry_after_past_the_budget(limited_app):
    client = limited_app().test_client()
    assert [count(client).status_code for _ in range(3)] == [200, 200, 200]
    assert_rate_limited(count(client), 3)


def test_successful_writes_carry_the_budget_but_no_retry_after(limited_app):
    client = limited_app().test_client()
    body = {"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}
    for response in (count(client), client.post("/items/MLA100/compatibilities", json=body, headers=SELLER_H)):
        assert response.status_code == 200, response.get_json()
        assert "Retry-After" not in response.headers
        assert response.headers["X-RateLimit-Limit"] == "3"
    count(client)
    assert_rate_limited(count(client), 3)


def test_count_and_compatibility_writes_share_one_budget(limited_app):
    client = limited_app().test_client()
    assert count(client).status_code == 200
    body = {"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}
    assert client.post("/items/MLA100/compatibilities", json=body, headers=SELLER_H).status_code == 200
    assert client.delete("/items/MLA100/compatibilities", headers=SELLER_H).status_code == 200
    assert_rate_limited(client.post("/items/MLA100/compatibilities", json=body, headers=SELLER_H), 3)
    assert_rate_limited(count(client), 3)


def test_each_user_has_its_own_budget_and_reads_are_not_limited(limited_app):
    client = limited_app().test_client()
    for _ in range(4):
        count(client)
    assert count(client).status_code == 429
    assert count(client, bearer(TOKENS[OTHER_SELLER])).status_code == 200
    reads = {client.get("/items/MLA100/compatibilities", headers=SELLER_H).status_code for _ in range(6)}
    assert reads == {200}


def test_reads_touch_no_store_when_every_limit_is_a_views_own(limited_app):
    # A store that fails every call, refused closed: a read that counted anything would answer 503.
    client = limited_app(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}",
                         RATELIMIT_FAIL_MODE="closed").test_client()
    assert client.get("/items/MLA100/compatibilities", headers=SELLER_H).status_code == 200
    assert client.get("/sites").status_code == 200
    assert count(client).status_code == 503


def test_a_default_limit_set_in_flask_limiters_own_setting_applies_to_reads(limited_app):
    # The before-request pass is skipped only while no limit other than a view's own is in force.
    try:
        client = limited_app(RATELIMIT_DEFAULT="2 per minute").test_client()
        assert [client.get("/sites").status_code for _ in range(3)] == [200, 200, 429]
    finally:
        limiter.limit_manager.set_default_limits([])  # the limiter is the process's: later apps set none


def test_rate_limit_can_be_switched_off(limited_app):
    client = limited_app(RATELIMIT_ENABLED=False).test_client()
    assert {count(client).status_code for _ in range(6)} == {200}


def test_redis_storage_counts_in_redis_under_the_key_prefix(limited_app, redis_prefix):
    client = limited_app(RATELIMIT_STORAGE_URI=REDIS_URL, RATELIMIT_KEY_PREFIX=redis_prefix).test_client()
    assert [count(client).status_code for _ in range(3)] == [200, 200, 200]
    assert_rate_limited(count(client), 3)
    keys = redis.Redis.from_url(REDIS_URL).keys(f"*/{redis_prefix}/*")
    assert len(keys) == 1 and b"compat_writes" in keys[0]


def test_unreachable_redis_serves_requests_unlimited_instead_of_failing(limited_app):
    client = limited_app(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}").test_client()
    assert [count(client).status_code for _ in range(5)] == [200] * 5


def fire_at_both_hosts(tmp_path, storage, prefix):
    """Three counts on host A, then three on host B; the statuses host B answered."""
    with fresh_database("sqlite", tmp_path) as url:
        load_database(url, base_bundle(), tmp_path)
        settings = {"RATELIMIT_ENABLED": "true", "RATELIMIT_COMPAT_WRITES": "5 per minute",
                    "RATELIMIT_STORAGE_URI": storage, "RATELIMIT_KEY_PREFIX": prefix}
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with Gunicorn(url, tmp_path / "a", workers=1, **settings) as host_a, \
                Gunicorn(url, tmp_path / "b", workers=1, **settings) as host_b:
            on_a = [host_a.request("POST", COUNT_PATH, FORD, SELLER_H) for _ in range(3)]
            on_b = [host_b.request("POST", COUNT_PATH, FORD, SELLER_H) for _ in range(3)]
    assert [status for status, _, _ in on_a] == [200, 200, 200]
    return on_b


@pytest.mark.slow
def test_two_hosts_sharing_redis_share_one_count(tmp_path, redis_prefix):
    on_b = fire_at_both_hosts(tmp_path, REDIS_URL, redis_prefix)
    assert [status for status, _, _ in on_b] == [200, 200, 429]
    status, headers, body = on_b[-1]
    assert body["error"] == "local_rate_limited" and int(headers["retry-after"]) > 0


@pytest.mark.slow
def test_two_hosts_with_memory_storage_count_alone(tmp_path):
    on_b = fire_at_both_hosts(tmp_path, "memory://", "")
    assert [status for status, _, _ in on_b] == [200, 200, 200]
