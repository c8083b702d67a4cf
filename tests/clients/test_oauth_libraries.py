"""Real OAuth libraries and a marketplace SDK, unmodified and with their default settings, against the
served app: issue 15's clients that failed (HTTP Basic client authentication, a form body labelled
JSON, parameters in the query string)."""
import warnings

import pytest

from app.services.auth import tokens
from tests.bundles import SELLER
from tests.clients.wire import CLIENT_ID, CLIENT_SECRET, REDIRECT_URI


@pytest.fixture(autouse=True)
def loaded(catalog):
    return catalog


def compatibility_ids(response):
    assert response.status_code == 200, response.text
    return [p["catalog_product_id"] for p in response.json()["products"]]


def test_authlib_default_client_secret_basic_gets_a_token_and_reads_compatibilities(live):
    from authlib.integrations.requests_client import OAuth2Session

    # authlib's default token_endpoint_auth_method is client_secret_basic (RFC 6749 §2.3.1).
    with OAuth2Session(CLIENT_ID, CLIENT_SECRET) as session:
        token = session.fetch_token(f"{live}/oauth/token", grant_type="client_credentials")
        assert token["token_type"] == "Bearer" and token["user_id"] == SELLER
        assert compatibility_ids(session.get(f"{live}/items/MLA100/compatibilities")) == ["MLA90001"]


def test_requests_oauthlib_default_backend_flow_gets_a_token_and_reads_compatibilities(live, monkeypatch):
    from oauthlib.oauth2 import BackendApplicationClient
    from requests_oauthlib import OAuth2Session

    # oauthlib refuses plain http unless told this is a local test; its authentication is unchanged.
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")
    session = OAuth2Session(client=BackendApplicationClient(client_id=CLIENT_ID))
    token = session.fetch_token(token_url=f"{live}/oauth/token", client_secret=CLIENT_SECRET)
    assert token["user_id"] == SELLER and token["access_token"].startswith("APP_USR-")
    assert compatibility_ids(session.get(f"{live}/items/MLA100/compatibilities")) == ["MLA90001"]


def melisdk_meli():
    with warnings.catch_warnings():
        # melisdk 0.1.3's source has an invalid escape ("\/"), a warning when it is compiled.
        warnings.simplefilter("ignore", (DeprecationWarning, SyntaxWarning))
        from melisdk import Meli
    return Meli


def test_melisdk_code_refresh_then_add_read_and_delete_a_compatibility(live, run_db):
    meli = melisdk_meli()(client_id=int(CLIENT_ID), client_secret=CLIENT_SECRET)
    meli.API_ROOT_URL = live  # the SDK's root is a setting; everything else is as shipped
    code = run_db(tokens.issue_authorization_code, CLIENT_ID, SELLER, 600)

    # authorize(): parameters in the query string, no body, labelled application/json.
    first = meli.authorize(code, REDIRECT_URI)
    # get_refresh_token(): the query string again plus a form body labelled application/json.
    second = meli.get_refresh_token()
    assert first and second and second != first and meli.refresh_token

    bearer = {"Authorization": f"Bearer {meli.access_token}"}
    added = meli.post("/items/MLA101/compatibilities", extra_headers=bearer,
                      body={"creation_source": "AUTOMATION", "products": [{"id": "MLA90003"}]})
    assert added.status_code == 200 and added.json() == {"created_compatibilities_count": 1}, added.text

    listed = meli.get("/items/MLA101/compatibilities", extra_headers=bearer)
    assert compatibility_ids(listed) == ["MLA90003"]
    compatibility_id = listed.json()["products"][0]["id"]

    deleted = meli.delete(f"/items/MLA101/compatibilities/{compatibility_id}", extra_headers=bearer)
    assert deleted.status_code == 200 and deleted.json()["deleted_compatibilities"] == [compatibility_id]
    assert compatibility_ids(meli.get("/items/MLA101/compatibilities", extra_headers=bearer)) == []


def test_a_reused_refresh_token_is_refused_and_ends_the_grant_for_an_sdk_too(live, run_db):
    meli = melisdk_meli()(client_id=int(CLIENT_ID), client_secret=CLIENT_SECRET)
    meli.API_ROOT_URL = live
    meli.authorize(run_db(tokens.issue_authorization_code, CLIENT_ID, SELLER, 600), REDIRECT_URI)
    stolen = meli.refresh_token
    meli.get_refresh_token()
    fresh_access = meli.access_token

    meli.refresh_token = stolen  # an attacker replays the used refresh token
    with pytest.raises(Exception) as refused:
        meli.get_refresh_token()
    assert refused.value.response.status_code == 400
    assert refused.value.response.json()["error"] == "invalid_grant"
    me = meli.get("/users/me", extra_headers={"Authorization": f"Bearer {fresh_access}"})
    assert me.status_code == 401  # the legitimate client's tokens were revoked too
