"""The item read (endpoint 3) and the token lookup keep their compiled SQL, never the data they read."""
from app.db import _compiled_sql
from app.models import AccessToken
from app.services.auth import create_access_token, digest
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.conftest import bearer

AUTH = bearer(TOKENS[SELLER])


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
    assert any(key[0] == "item_read" for key in _compiled_sql)  # compiled once, kept


def test_token_lookup_sees_a_revoked_or_new_token(client, run_db, load_bundle):
    load_bundle(base_bundle())
    token = run_db(create_access_token, SELLER)
    assert client.get("/items/MLA999999", headers=bearer(token)).status_code == 404
    run_db(lambda: AccessToken.update(revoked=True).where(AccessToken.token_hash == digest(token)).execute())
    response = client.get("/items/MLA999999", headers=bearer(token))
    assert response.status_code == 401 and response.get_json()["error"] == "invalid_token"
