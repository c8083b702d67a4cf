"""GET /users/me (who the token acts for; SDKs call it first) and GET /users/{user_id}."""
import pytest

from tests.bundles import OTHER_SELLER, SELLER, TOKENS, base_bundle
from tests.helpers import bearer


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(base_bundle())


def test_me_is_the_token_user_with_its_own_details(client):
    response = client.get("/users/me", headers=bearer(TOKENS[SELLER]))
    assert response.status_code == 200
    assert response.get_json() == {"id": SELLER, "nickname": "TALLER_SUR", "site_id": "MLA", "user_type": "seller"}


def test_a_user_by_id_is_its_public_record(client):
    response = client.get(f"/users/{OTHER_SELLER}", headers=bearer(TOKENS[SELLER]))
    assert response.status_code == 200
    assert response.get_json() == {"id": OTHER_SELLER, "nickname": "OTRO_VENDEDOR", "site_id": "MLA"}


@pytest.mark.parametrize("user_id", [424242, 2 ** 70])
def test_unknown_user_is_404_user_not_found(client, user_id):
    response = client.get(f"/users/{user_id}", headers=bearer(TOKENS[SELLER]))
    assert response.status_code == 404 and response.get_json()["error"] == "user_not_found"


@pytest.mark.parametrize("path", ["/users/me", f"/users/{SELLER}"])
def test_users_need_a_token(client, path):
    response = client.get(path)
    assert response.status_code == 401 and response.get_json()["error"] == "invalid_token"
