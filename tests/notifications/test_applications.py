"""N1 and N2: an application's subscription, its owner only, and the callback URLs refused (SSRF);
N3 and N4 refused to other users; the bundle's callback_url and topics."""
import pytest

from app.db import db
from app.services.notifications import delivery
from app.services.notifications.addresses import RefusedUrl, check_callback
from tests.bundles import OTHER_SELLER, TOKENS
from tests.helpers import assert_error, bearer, loaded_app
from tests.notifications.conftest import AUTH

OTHER = bearer(TOKENS[OTHER_SELLER])


@pytest.fixture
def app(request, database_url):
    """As in production: NOTIFY_ALLOW_PRIVATE off."""
    app = loaded_app(request, database_url)
    yield app
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()


def test_n1_answers_the_subscription_and_never_the_client_secret(client):
    body = client.get("/applications/5501", headers=AUTH).get_json()
    assert set(body) == {"id", "owner_id", "redirect_uri", "callback_url", "topics", "signing_secret"}
    assert (body["id"], body["owner_id"], body["topics"], body["callback_url"]) == ("5501", 1001, [], None)
    assert body["signing_secret"].startswith("whsec_")
    assert "s3cret" not in str(body)


def test_n2_changes_only_the_fields_sent(client):
    put = client.put("/applications/5501", json={"callback_url": "https://example.org/n"}, headers=AUTH)
    assert put.status_code == 200, put.get_json()
    client.put("/applications/5501", json={"topics": ["bulk_jobs"]}, headers=AUTH)
    body = client.get("/applications/5501", headers=AUTH).get_json()
    assert (body["callback_url"], body["topics"]) == ("https://example.org/n", ["bulk_jobs"])


def test_n2_refuses_an_unknown_topic(client):
    assert_error(client.put("/applications/5501", json={"topics": ["orders"]}, headers=AUTH), 400,
                 "validation_error")


@pytest.mark.parametrize("url", ["ftp://example.org/n", "http://127.0.0.1:8080/n", "http://localhost/n",
                                 "http://10.1.2.3/n", "http://192.168.0.9/n", "http://169.254.169.254/latest",
                                 "http://[::1]/n", "http://[::ffff:127.0.0.1]/n", "http://100.64.0.1/n",
                                 "http://0.0.0.0/n", "https://user:pw@example.org/n"])
def test_n2_refuses_callbacks_to_this_hosts_networks(client, url):
    body = assert_error(client.put("/applications/5501", json={"callback_url": url}, headers=AUTH), 400,
                        "validation_error")
    assert "callback_url" in body["message"]


@pytest.mark.parametrize("url", ["http://localhost:9/n", "http://127.0.0.1:9/n", "http://10.0.0.1/n"])
def test_a_delivery_refuses_a_name_or_address_that_resolves_to_a_private_one(url):
    # Checked again at delivery, after DNS: a callback stored before (or pointed by DNS later) is refused.
    error = delivery.post(url, b"{}", {}, 0.5, allow_private=False)
    assert error.startswith("refused:"), error


def test_the_check_resolves_names(monkeypatch):
    monkeypatch.setattr("socket.getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("10.0.0.7", 80))])
    with pytest.raises(RefusedUrl, match="private"):
        check_callback("http://rebind.example/n", allow_private=False)
    check_callback("http://rebind.example/n", allow_private=True)


def test_another_users_application_is_refused(client):
    assert_error(client.get("/applications/5501", headers=OTHER), 403, "forbidden")
    assert_error(client.put("/applications/5501", json={"topics": []}, headers=OTHER), 403, "forbidden")
    assert_error(client.get("/missed_feeds?app_id=5501", headers=OTHER), 403, "forbidden")
    assert_error(client.get("/applications/9999", headers=AUTH), 404, "application_not_found")


def test_another_users_feed_is_refused(client):
    assert_error(client.get("/users/1001/compatibilities/changes", headers=OTHER), 403, "forbidden")
    assert client.get("/users/1001/compatibilities/changes", headers=AUTH).status_code == 200


def test_the_bundle_carries_callback_url_and_topics(app, run_db):
    from app.services.bundle import export_bundle, import_bundle
    from tests.bundles import base_bundle

    bundle = base_bundle()
    bundle["applications"][0].update(callback_url="https://example.org/n", topics=["items_compatibilities"])
    run_db(import_bundle, bundle)
    [exported] = run_db(export_bundle)["applications"]
    assert (exported["callback_url"], exported["topics"]) == ("https://example.org/n", ["items_compatibilities"])
