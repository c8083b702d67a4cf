"""Issue 16, OAuth abuse: guessing client secrets at /oauth/token is limited per client_id and per
address (a lockout: past the limit even the right secret answers 429 until the window ends, and only
failures count); the write budget is per user, so minting tokens does not renew it; `flask tokens
purge` deletes what can no longer authenticate."""
import base64
import datetime
import time
import types
from concurrent.futures import ThreadPoolExecutor

import limits.storage.memory
import pytest

from app.db import connection
from app.models import AccessToken, AuthorizationCode, RefreshToken
from app.services.auth import queries, tokens
from tests.bundles import OTHER_SELLER, SELLER, TOKENS, base_bundle
from tests.faults.slow_secret_wsgi import slowed
from tests.gunicorn_util import Gunicorn, fresh_database, load_database
from tests.helpers import BACKENDS, assert_error, bearer
from tests.http.test_ratelimit import REDIS_URL, redis_prefix  # noqa: F401 (a fixture, by name)

CLIENT_ID, SECRET = "5501", "s3cret"
COUNT_PATH = "/catalog_compatibilities/products_search/count_family_products"
GRANT = f"grant_type=client_credentials&client_id={CLIENT_ID}"
FORD = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Ford"}]}


@pytest.fixture
def build_app(app_with):
    return app_with


@pytest.fixture
def clock(monkeypatch):
    """Moves the memory rate-limit storage's clock forward (`clock.advance(seconds)`), so a window
    passes without sleeping through it."""
    offset = [0.0]
    fake = types.SimpleNamespace(time=lambda: time.time() + offset[0])
    monkeypatch.setattr(limits.storage.memory, "time", fake)
    return types.SimpleNamespace(advance=lambda seconds: offset.__setitem__(0, offset[0] + seconds))


def basic(client_id, secret):
    return {"Authorization": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


def client_credentials(client, secret, style="form", client_id=CLIENT_ID, **request_kwargs):
    """POST /oauth/token for a client_credentials grant, the client authenticating in one of the ways
    real clients do: form body, JSON body, query string or HTTP Basic."""
    grant = {"grant_type": "client_credentials"}
    params = {**grant, "client_id": client_id, "client_secret": secret}
    if style == "basic":
        return client.post("/oauth/token", data=grant, headers=basic(client_id, secret), **request_kwargs)
    if style == "json":
        return client.post("/oauth/token", json=params, **request_kwargs)
    if style == "query":
        return client.post("/oauth/token", query_string=params, **request_kwargs)
    return client.post("/oauth/token", data=params, **request_kwargs)


def assert_locked(response, what, limit):
    body = assert_error(response, 429, "local_rate_limited")
    assert f"failed client authentications per {what} ({limit})" in body["message"]
    assert 0 < int(response.headers["Retry-After"]) <= 60


STYLES = ("form", "json", "query", "basic")
# Requests in flight at once in the concurrency tests (and the connections they hold).
BURST_THREADS = 16
SLOW_APP = "tests.faults.slow_secret_wsgi:slow_app()"


def test_a_thousand_wrong_secrets_get_ten_401_then_429_and_lock_out_the_right_secret(build_app, clock):
    client = build_app().test_client()
    started = time.monotonic()
    # Every way of presenting the client counts against the one client_id.
    answers = [client_credentials(client, f"guess-{n}", STYLES[n % 4]) for n in range(1000)]
    elapsed = time.monotonic() - started
    statuses = [a.status_code for a in answers]
    assert statuses == [401] * 10 + [429] * 990
    for response in answers[:10]:
        assert_error(response, 401, "invalid_client")
    for response in answers[10:]:
        assert_locked(response, "client_id", "10 per minute")
    print(f"\n1,000 wrong secrets: {statuses.count(401)} x 401 then {statuses.count(429)} x 429 in {elapsed:.2f} s")

    # A lockout: the right secret is refused too while the window lasts...
    assert_locked(client_credentials(client, SECRET), "client_id", "10 per minute")
    clock.advance(30)
    assert_locked(client_credentials(client, SECRET, "basic"), "client_id", "10 per minute")
    # ...and works once it has passed.
    clock.advance(31)
    issued = client_credentials(client, SECRET)
    assert issued.status_code == 200 and issued.get_json()["user_id"] == SELLER


@pytest.mark.parametrize("storage", ["memory", "redis"])
def test_concurrent_wrong_secrets_get_exactly_the_limit_of_401s(build_app, monkeypatch, storage, request):
    """Each secret check takes a while, so every guess of the burst is in flight at once: the count
    is taken before the check, and the guesses past the limit are refused without one."""
    shared = {}
    if storage == "redis":
        shared = {"RATELIMIT_STORAGE_URI": REDIS_URL, "RATELIMIT_KEY_PREFIX": request.getfixturevalue("redis_prefix")}
    app = build_app(DB_MAX_CONNECTIONS=BURST_THREADS, **shared)
    monkeypatch.setattr(tokens, "_authenticate_client", slowed(tokens._authenticate_client))
    with ThreadPoolExecutor(BURST_THREADS) as pool:
        answers = list(pool.map(lambda n: client_credentials(app.test_client(), f"guess-{n}"), range(32)))
    statuses = [a.status_code for a in answers]
    assert sorted(statuses) == [401] * 10 + [429] * 22, statuses
    for response in answers:
        if response.status_code == 429:
            assert_locked(response, "client_id", "10 per minute")
    assert_locked(client_credentials(app.test_client(), SECRET), "client_id", "10 per minute")


def test_successful_authentications_do_not_count(build_app):
    client = build_app().test_client()
    assert {client_credentials(client, f"guess-{n}").status_code for n in range(9)} == {401}
    assert {client_credentials(client, SECRET, STYLES[n % 4]).status_code for n in range(40)} == {200}
    assert client_credentials(client, "guess-10").status_code == 401
    assert_locked(client_credentials(client, SECRET), "client_id", "10 per minute")


def test_failures_of_other_grants_count_as_well(build_app):
    client = build_app().test_client()
    for n in range(10):
        wrong = client.post("/oauth/token", data={"grant_type": "refresh_token", "refresh_token": "TG-x",
                                                  "client_id": CLIENT_ID, "client_secret": f"guess-{n}"})
        assert_error(wrong, 401, "invalid_client")
    assert_locked(client.post("/oauth/token", data={"grant_type": "authorization_code", "code": "x",
                                                    "client_id": CLIENT_ID, "client_secret": SECRET}),
                  "client_id", "10 per minute")


def test_per_address_limit_spans_client_ids_and_spares_other_addresses(build_app):
    client = build_app(AUTH_FAILURES_PER_ADDRESS="5 per minute").test_client()
    attacker = {"environ_base": {"REMOTE_ADDR": "203.0.113.7"}}
    sprayed = [client_credentials(client, "guess", client_id=str(6000 + n), **attacker).status_code
               for n in range(20)]
    assert sprayed == [401] * 5 + [429] * 15
    assert_locked(client_credentials(client, SECRET, **attacker), "address", "5 per minute")
    # The real client, calling from elsewhere, is not locked out by the spraying.
    assert client_credentials(client, SECRET, environ_base={"REMOTE_ADDR": "198.51.100.2"}).status_code == 200


def test_jsonp_does_not_hide_failures_from_the_count(build_app):
    client = build_app().test_client()
    for n in range(12):
        wrapped = client.post("/oauth/token?callback=cb", data={
            "grant_type": "client_credentials", "client_id": CLIENT_ID, "client_secret": f"guess-{n}"})
        assert wrapped.status_code == 200  # JSONP: the real status is inside the body
    assert_locked(client_credentials(client, SECRET), "client_id", "10 per minute")


def test_a_repeated_client_id_counts_under_the_one_the_endpoint_authenticates(build_app):
    client = build_app().test_client()
    for n in range(10):
        # The form parser takes the first client_id: the count must name that one, not the second.
        body = f"grant_type=client_credentials&client_id={CLIENT_ID}&client_id=other-{n}&client_secret=guess"
        answer = client.post("/oauth/token", data=body, content_type="application/x-www-form-urlencoded")
        assert_error(answer, 401, "invalid_client")
    assert_locked(client_credentials(client, SECRET), "client_id", "10 per minute")


def test_limits_are_settings_and_empty_switches_them_off(build_app):
    client = build_app(AUTH_FAILURES_PER_CLIENT="3 per 10 seconds").test_client()
    assert [client_credentials(client, "guess").status_code for _ in range(3)] == [401, 401, 401]
    locked = client_credentials(client, SECRET)
    assert_error(locked, 429, "local_rate_limited")
    # Retry-After is the window's end, not a fixed minute.
    assert 0 < int(locked.headers["Retry-After"]) <= 10
    off = build_app(AUTH_FAILURES_PER_CLIENT="", AUTH_FAILURES_PER_ADDRESS="").test_client()
    assert {client_credentials(off, "guess").status_code for _ in range(40)} == {401}
    assert client_credentials(off, SECRET).status_code == 200


def count(client, token):
    return client.post(COUNT_PATH, json=FORD, headers=bearer(token))


def test_minting_new_tokens_does_not_renew_the_write_budget(build_app, run_db):
    app = build_app(RATELIMIT_COMPAT_WRITES="3 per minute")
    client = app.test_client()
    statuses = []
    for _ in range(8):
        minted = client_credentials(client, SECRET).get_json()["access_token"]
        statuses.append(count(client, minted).status_code)
    assert statuses == [200, 200, 200] + [429] * 5
    # Nor does a token of another grant for the same user, or one made by the operator's command.
    with app.app_context(), connection():
        code = tokens.issue_authorization_code(CLIENT_ID, SELLER, 600)
        operator_token = tokens.create_access_token(SELLER)
    by_code = client.post("/oauth/token", data={"grant_type": "authorization_code", "code": code,
                                                "client_id": CLIENT_ID, "client_secret": SECRET})
    assert count(client, by_code.get_json()["access_token"]).status_code == 429
    assert count(client, operator_token).status_code == 429
    assert count(client, TOKENS[OTHER_SELLER]).status_code == 200


def test_the_write_limit_reuses_the_token_lookup_of_the_auth_check(build_app, monkeypatch):
    client = build_app().test_client()
    lookups = []
    real = queries.access_token_row
    monkeypatch.setattr(queries, "access_token_row", lambda token_hash: lookups.append(1) or real(token_hash))
    assert count(client, TOKENS[SELLER]).status_code == 200
    assert len(lookups) == 1


def test_purge_deletes_what_cannot_authenticate_and_keeps_the_rest(build_app):
    app = build_app()
    past = datetime.datetime(2000, 1, 1)
    with app.app_context(), connection():
        live = tokens.create_access_token(SELLER, 3600)
        forever = tokens.create_access_token(SELLER)
        expired = tokens.create_access_token(SELLER, 3600)
        revoked = tokens.create_access_token(SELLER, 3600)
        AccessToken.update(expires_at=past).where(AccessToken.token_hash == tokens.digest(expired)).execute()
        AccessToken.update(revoked=True).where(AccessToken.token_hash == tokens.digest(revoked)).execute()
        live_code, expired_code, used_code = (tokens.issue_authorization_code(CLIENT_ID, SELLER, 600)
                                              for _ in range(3))
        AuthorizationCode.update(expires_at=past).where(
            AuthorizationCode.code_hash == tokens.digest(expired_code)).execute()
    client = app.test_client()
    used = client.post("/oauth/token", data={"grant_type": "authorization_code", "code": used_code,
                                             "client_id": CLIENT_ID, "client_secret": SECRET}).get_json()
    rotated = client.post("/oauth/token", data={"grant_type": "refresh_token", "refresh_token": used["refresh_token"],
                                                "client_id": CLIENT_ID, "client_secret": SECRET}).get_json()
    with app.app_context(), connection():
        stale = RefreshToken.create(token_hash="f" * 64, user=SELLER, application=CLIENT_ID, expires_at=past)
        before = AccessToken.select().count()

    result = app.test_cli_runner().invoke(args=["tokens", "purge"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "2 access tokens, 1 refresh tokens, 2 authorization codes purged"

    with app.app_context(), connection():
        access = {t.token_hash for t in AccessToken.select()}
        assert len(access) == before - 2
        assert tokens.digest(expired) not in access and tokens.digest(revoked) not in access
        for kept in (live, forever, used["access_token"], rotated["access_token"], TOKENS[SELLER]):
            assert tokens.resolve_access_token(kept) == SELLER
        refresh = {t.token_hash for t in RefreshToken.select()}
        # The used refresh token stays until it expires: presented again, it still revokes the grant.
        assert refresh == {tokens.digest(used["refresh_token"]), tokens.digest(rotated["refresh_token"])}
        assert stale.token_hash not in refresh
        assert [c.code_hash for c in AuthorizationCode.select()] == [tokens.digest(live_code)]
    again = app.test_cli_runner().invoke(args=["tokens", "purge"])
    assert again.stdout.strip() == "0 access tokens, 0 refresh tokens, 0 authorization codes purged"
    reuse = client.post("/oauth/token", data={"grant_type": "refresh_token", "refresh_token": used["refresh_token"],
                                              "client_id": CLIENT_ID, "client_secret": SECRET})
    assert_error(reuse, 400, "invalid_grant")
    with app.app_context(), connection():
        assert tokens.resolve_access_token(rotated["access_token"]) is None


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_gunicorn_workers_sharing_redis_lock_out_a_secret_guesser_together(tmp_path, backend, request):
    """1,000 wrong secrets over HTTP at two gunicorn workers counting in one Redis: ten 401s in all,
    then 429 until the window ends; then the right secret works again. The window is 10 s, which the
    test sleeps through. On a loaded host the 1,000 requests may outlast the window, after which the
    count starts again: only the answers sent inside the window are held to "ten 401s, then 429"."""
    prefix = request.getfixturevalue("redis_prefix")  # skips without Redis
    window = 10
    settings = {"RATELIMIT_ENABLED": "true", "RATELIMIT_STORAGE_URI": REDIS_URL, "RATELIMIT_KEY_PREFIX": prefix,
                "AUTH_FAILURES_PER_CLIENT": f"10 per {window} seconds",
                "AUTH_FAILURES_PER_ADDRESS": "30 per 10 seconds"}
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    with fresh_database(backend, tmp_path) as url:
        load_database(url, base_bundle(), tmp_path)
        with Gunicorn(url, tmp_path, workers=2, **settings) as gunicorn:
            started = time.monotonic()
            answers = []
            for n in range(1000):
                sent = time.monotonic()
                answers.append((sent, gunicorn.request("POST", f"/oauth/token?{GRANT}&client_secret=guess-{n}",
                                                       headers=form)))
            elapsed = time.monotonic() - started
            locked = gunicorn.request("POST", f"/oauth/token?{GRANT}&client_secret={SECRET}", headers=form)
            time.sleep(int(locked[1]["retry-after"]) + 1)
            unlocked = gunicorn.request("POST", f"/oauth/token?{GRANT}&client_secret={SECRET}", headers=form)
    # The window opens with the first answer's count; a small margin for the round trip that opened it.
    inside = [answer for sent, answer in answers if sent < started + window - 0.5]
    statuses = [status for status, _, _ in inside]
    print(f"\n[{backend}] gunicorn, 2 workers, Redis: 1,000 wrong secrets in {elapsed:.2f} s, {len(inside)} inside "
          f"the window: {statuses.count(401)} x 401 then {statuses.count(429)} x 429; right secret locked, "
          f"Retry-After {locked[1]['retry-after']} s, then {unlocked[0]}")
    assert len(inside) > 100, f"only {len(inside)} requests inside the {window} s window: the host is too slow"
    assert statuses == [401] * 10 + [429] * (len(inside) - 10)
    assert {body["error"] for _, _, body in inside[10:]} == {"local_rate_limited"}
    assert all(0 < int(headers["retry-after"]) <= window for _, headers, _ in inside[10:])
    if elapsed < window - 0.5:
        assert locked[0] == 429 and locked[2]["error"] == "local_rate_limited"
    assert unlocked[0] == 200 and unlocked[2]["user_id"] == SELLER


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_burst_of_wrong_secrets_at_two_hosts_sharing_redis_gets_exactly_the_limit_of_401s(
        tmp_path, backend, request):
    """32 wrong secrets at once, alternating between two gunicorns (two hosts) counting in one Redis,
    each secret check slowed so that the whole burst is in flight together: ten 401s in all."""
    prefix = request.getfixturevalue("redis_prefix")  # skips without Redis
    settings = {"RATELIMIT_ENABLED": "true", "RATELIMIT_STORAGE_URI": REDIS_URL, "RATELIMIT_KEY_PREFIX": prefix}
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    for host in ("a", "b"):
        (tmp_path / host).mkdir()
    with fresh_database(backend, tmp_path) as url:
        load_database(url, base_bundle(), tmp_path)
        with Gunicorn(url, tmp_path / "a", workers=3, wsgi=SLOW_APP, **settings) as a, \
                Gunicorn(url, tmp_path / "b", workers=3, wsgi=SLOW_APP, **settings) as b:
            hosts = (a, b)
            started = time.monotonic()
            with ThreadPoolExecutor(32) as pool:
                answers = list(pool.map(lambda n: hosts[n % 2].request(
                    "POST", f"/oauth/token?{GRANT}&client_secret=guess-{n}", headers=form), range(32)))
            elapsed = time.monotonic() - started
            locked = b.request("POST", f"/oauth/token?{GRANT}&client_secret={SECRET}", headers=form)
    statuses = [status for status, _, _ in answers]
    print(f"\n[{backend}] two gunicorns, 3 workers each, one Redis: 32 wrong secrets at once: "
          f"{statuses.count(401)} x 401, {statuses.count(429)} x 429 in {elapsed:.2f} s")
    assert sorted(statuses) == [401] * 10 + [429] * 22, statuses
    assert {body["error"] for status, _, body in answers if status == 429} == {"local_rate_limited"}
    assert locked[0] == 429 and locked[2]["error"] == "local_rate_limited"
