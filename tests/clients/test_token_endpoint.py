"""POST /oauth/token as real clients call it (issue 15): HTTP Basic client authentication, a numeric
client_id, a form body whatever its label, the query string; and refresh-token reuse detection."""
import base64

import pytest

from app.services.auth import tokens
from tests.bundles import SELLER, base_bundle
from tests.clients.wire import CLIENT_ID, CLIENT_SECRET, REDIRECT_URI


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(base_bundle())


def basic(client_id=CLIENT_ID, secret=CLIENT_SECRET):
    return {"Authorization": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


def granted(response):
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["token_type"] == "Bearer" and body["access_token"] and body["refresh_token"]
    return body


def test_client_authenticates_with_http_basic(client):
    body = granted(client.post("/oauth/token", data={"grant_type": "client_credentials"}, headers=basic()))
    assert body["user_id"] == SELLER


def test_http_basic_with_a_form_encoded_id_and_secret_as_rfc_6749_says(client):
    # RFC 6749 §2.3.1 form-encodes both before Basic; "s3cret" has nothing to encode, so encode a letter.
    response = client.post("/oauth/token", data={"grant_type": "client_credentials"},
                           headers=basic("%35501", "s%33cret"))
    assert granted(response)["user_id"] == SELLER


def test_wrong_basic_secret_is_invalid_client_naming_the_basic_scheme(client):
    response = client.post("/oauth/token", data={"grant_type": "client_credentials"}, headers=basic(secret="no"))
    assert response.status_code == 401 and response.get_json()["error"] == "invalid_client"
    assert response.headers["WWW-Authenticate"].startswith("Basic")


def test_basic_and_a_different_client_id_in_the_body_is_refused(client):
    response = client.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": "9999"},
                           headers=basic())
    assert response.status_code == 400 and response.get_json()["error"] == "invalid_request"


GRANT = {"grant_type": "client_credentials", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}


@pytest.mark.parametrize("name, request_kwargs", [
    ("client_id", {"query_string": {"client_id": "9999"}, "data": GRANT}),
    ("client_id", {"query_string": {"client_id": "9999"}, "json": GRANT}),
    ("client_id", {"query_string": {**GRANT, "client_id": "9999"}, "json": {"client_id": int(CLIENT_ID)}}),
    ("grant_type", {"query_string": {"grant_type": "refresh_token"}, "data": GRANT}),
    ("client_id", {"query_string": {"client_id": "9999"}, "data": {"grant_type": "client_credentials"},
                   "headers": basic()}),
    ("client_secret", {"data": {**GRANT, "client_secret": "other"}, "headers": basic()}),
])
def test_a_parameter_with_two_values_in_two_places_is_refused_naming_it(client, name, request_kwargs):
    """Query string, body and HTTP Basic: none wins over another, a conflict is the client's mistake."""
    response = client.post("/oauth/token", **request_kwargs)
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "invalid_request", body
    assert f"Parameter {name} differs" in body["message"]


def test_the_same_value_in_several_places_is_one_parameter(client):
    response = client.post("/oauth/token", query_string={"client_id": CLIENT_ID},
                           json={**GRANT, "client_id": int(CLIENT_ID)}, headers=basic())
    assert granted(response)["user_id"] == SELLER


def test_missing_client_credentials_say_how_to_send_them(client):
    response = client.post("/oauth/token", data={"grant_type": "client_credentials"})
    assert response.status_code == 400 and "HTTP Basic" in response.get_json()["message"]


def test_numeric_client_id_in_a_json_body(client):
    response = client.post("/oauth/token", json={"grant_type": "client_credentials", "client_id": int(CLIENT_ID),
                                                 "client_secret": CLIENT_SECRET})
    assert granted(response)["user_id"] == SELLER


@pytest.mark.parametrize("content_type", ["application/json", "text/plain", None])
def test_form_body_is_read_whatever_its_content_type(client, content_type):
    form = f"grant_type=client_credentials&client_id={CLIENT_ID}&client_secret={CLIENT_SECRET}"
    headers = {"Content-Type": content_type} if content_type else {}
    granted(client.post("/oauth/token", data=form.encode(), headers=headers))


def test_melisdk_refresh_shape_query_string_and_form_body_labelled_json(client, run_db):
    """The old official SDK's refresh: parameters in the query string and as a form body that says
    it is JSON. It used to answer 400 "Invalid JSON body"."""
    code = run_db(tokens.issue_authorization_code, CLIENT_ID, SELLER, 600)
    first = granted(client.post("/oauth/token", headers={"Content-Type": "application/json"}, query_string={
        "grant_type": "authorization_code", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
        "code": code, "redirect_uri": REDIRECT_URI}))
    params = {"grant_type": "refresh_token", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
              "refresh_token": first["refresh_token"]}
    form = "&".join(f"{k}={v}" for k, v in params.items())
    granted(client.post("/oauth/token", query_string=params, data=form.encode(),
                        headers={"Content-Type": "application/json"}))


def test_reused_refresh_token_revokes_the_grant(client, run_db):
    pair = granted(client.post("/oauth/token", data={"grant_type": "client_credentials"}, headers=basic()))
    refresh = {"grant_type": "refresh_token", "refresh_token": pair["refresh_token"]}
    renewed = granted(client.post("/oauth/token", data=refresh, headers=basic()))
    reused = client.post("/oauth/token", data=refresh, headers=basic())
    assert reused.status_code == 400 and reused.get_json()["error"] == "invalid_grant"
    assert run_db(tokens.resolve_access_token, renewed["access_token"]) is None
    again = client.post("/oauth/token", data={"grant_type": "refresh_token",
                                              "refresh_token": renewed["refresh_token"]}, headers=basic())
    assert again.status_code == 400
