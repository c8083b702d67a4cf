"""POST /oauth/token grants, token lifetime, hashing and revocation (decisions.md)."""
import datetime

import pytest

from app.models import AccessToken, AuthorizationCode, RefreshToken
from app.services.auth import tokens as auth
from tests.bundles import SELLER, TOKENS, base_bundle

CLIENT = {"client_id": "5501", "client_secret": "s3cret"}


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(base_bundle())


def token(client, **params):
    return client.post("/oauth/token", data=params)


def assert_oauth_error(response, status, error):
    body = response.get_json()
    assert response.status_code == status, body
    assert body["error"] == error and body["status"] == status and body["message"]


def test_client_credentials_issues_a_bearer_pair_for_the_owner(client, run_db):
    response = token(client, grant_type="client_credentials", **CLIENT)
    assert response.status_code == 200
    body = response.get_json()
    assert body["token_type"] == "Bearer" and body["user_id"] == SELLER
    assert body["expires_in"] == 21600 and body["scope"] and body["refresh_token"]
    assert run_db(auth.resolve_access_token, body["access_token"]) == SELLER


def test_grant_parameters_may_come_as_json_or_query_string(client, run_db):
    json_body = client.post("/oauth/token", json={"grant_type": "client_credentials", **CLIENT})
    query = client.post("/oauth/token", query_string={"grant_type": "client_credentials", **CLIENT})
    assert json_body.status_code == 200 and query.status_code == 200
    assert run_db(auth.resolve_access_token, query.get_json()["access_token"]) == SELLER


def test_tokens_are_stored_hashed_never_in_clear(client, run_db):
    issued = token(client, grant_type="client_credentials", **CLIENT).get_json()
    hashes = run_db(lambda: [t.token_hash for t in AccessToken.select()])
    assert issued["access_token"] not in hashes and auth.digest(issued["access_token"]) in hashes
    refresh_hashes = run_db(lambda: [t.token_hash for t in RefreshToken.select()])
    assert refresh_hashes == [auth.digest(issued["refresh_token"])]
    assert auth.digest(TOKENS[SELLER]) in hashes and TOKENS[SELLER] not in hashes


def test_wrong_client_secret_is_invalid_client(client):
    assert_oauth_error(token(client, grant_type="client_credentials", client_id="5501", client_secret="x"),
                       401, "invalid_client")


def test_unknown_grant_type_is_unsupported(client):
    assert_oauth_error(token(client, grant_type="password", **CLIENT), 400, "unsupported_grant_type")


def test_missing_parameters_are_invalid_request(client):
    assert_oauth_error(token(client, grant_type="client_credentials"), 400, "invalid_request")
    assert_oauth_error(token(client), 400, "invalid_request")
    assert_oauth_error(token(client, grant_type="refresh_token", **CLIENT), 400, "invalid_request")


def test_authorization_code_is_exchanged_once(client, run_db):
    code = run_db(auth.issue_authorization_code, "5501", 1002, 600)
    first = token(client, grant_type="authorization_code", code=code, redirect_uri="https://example.org/cb", **CLIENT)
    assert first.status_code == 200 and first.get_json()["user_id"] == 1002
    again = token(client, grant_type="authorization_code", code=code, **CLIENT)
    assert_oauth_error(again, 400, "invalid_grant")


def test_authorization_code_checks_redirect_uri_and_expiry(client, run_db):
    code = run_db(auth.issue_authorization_code, "5501", 1002, 600)
    assert_oauth_error(token(client, grant_type="authorization_code", code=code,
                             redirect_uri="https://evil.example/cb", **CLIENT), 400, "invalid_grant")
    expired = run_db(auth.issue_authorization_code, "5501", 1002, 600)
    run_db(lambda: AuthorizationCode.update(expires_at=datetime.datetime(2000, 1, 1)).execute())
    assert_oauth_error(token(client, grant_type="authorization_code", code=expired, **CLIENT), 400, "invalid_grant")


def test_refresh_token_is_single_use_and_rotates(client, run_db):
    first = token(client, grant_type="client_credentials", **CLIENT).get_json()
    second = token(client, grant_type="refresh_token", refresh_token=first["refresh_token"], **CLIENT)
    assert second.status_code == 200
    assert second.get_json()["refresh_token"] != first["refresh_token"]
    assert run_db(auth.resolve_access_token, second.get_json()["access_token"]) == SELLER


def test_reused_refresh_token_is_rejected_and_revokes_the_grant(client, run_db):
    first = token(client, grant_type="client_credentials", **CLIENT).get_json()
    second = token(client, grant_type="refresh_token", refresh_token=first["refresh_token"], **CLIENT).get_json()
    reuse = token(client, grant_type="refresh_token", refresh_token=first["refresh_token"], **CLIENT)
    assert_oauth_error(reuse, 400, "invalid_grant")
    # Reuse suggests theft: the tokens issued from that grant stop working too.
    assert run_db(auth.resolve_access_token, second["access_token"]) is None
    assert_oauth_error(token(client, grant_type="refresh_token", refresh_token=second["refresh_token"], **CLIENT),
                       400, "invalid_grant")


def test_expired_refresh_token_is_rejected(client, run_db):
    first = token(client, grant_type="client_credentials", **CLIENT).get_json()
    run_db(lambda: RefreshToken.update(expires_at=datetime.datetime(2000, 1, 1)).execute())
    assert_oauth_error(token(client, grant_type="refresh_token", refresh_token=first["refresh_token"], **CLIENT),
                       400, "invalid_grant")


def test_expired_or_revoked_access_token_no_longer_resolves(client, run_db):
    issued = token(client, grant_type="client_credentials", **CLIENT).get_json()["access_token"]
    assert run_db(auth.resolve_access_token, issued) == SELLER
    later = datetime.datetime.now(datetime.UTC).replace(tzinfo=None) + datetime.timedelta(seconds=21601)
    assert run_db(auth.resolve_access_token, issued, later) is None
    run_db(lambda: AccessToken.update(revoked=True).where(AccessToken.token_hash == auth.digest(issued)).execute())
    assert run_db(auth.resolve_access_token, issued) is None


def test_cli_creates_a_token_that_authenticates(app, run_db):
    result = app.test_cli_runner().invoke(args=["tokens", "create", "--user", str(SELLER)])
    assert result.exit_code == 0, result.output
    assert run_db(auth.resolve_access_token, result.stdout.strip()) == SELLER
    unknown = app.test_cli_runner().invoke(args=["tokens", "create", "--user", "999"])
    assert unknown.exit_code != 0 and "999" in unknown.output
