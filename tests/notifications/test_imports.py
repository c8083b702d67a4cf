"""Imports notify only what they change: re-importing an unchanged bundle (claims, compatibilities,
moderated notes) writes no outbox event and no change for N4; a claim the import adds does."""
from app.models import NotificationEvent
from app.services.bundle import import_bundle
from tests.bundle_data import full_bundle
from tests.notifications.conftest import feed_page


def _feed(client, count=0):
    return feed_page(client, {"limit": 200}, count)["results"]


def _events(run_db):
    return run_db(lambda: sorted(NotificationEvent.select(NotificationEvent.topic, NotificationEvent.subject)
                                 .tuples()))


def test_reimporting_an_unchanged_bundle_notifies_nobody(app, client, run_db, pump, subscribe, receiver):
    subscribe(receiver.url)
    run_db(import_bundle, full_bundle())
    assert _events(run_db)  # the first import changed the items of its claims and compatibilities
    pump()
    first_feed, delivered = _feed(client, 1), len(receiver.received)
    assert delivered
    run_db(import_bundle, full_bundle())
    assert _events(run_db) == []
    assert pump() == (0, 0)
    assert len(receiver.received) == delivered
    assert _feed(client) == first_feed


def test_a_claim_the_import_adds_notifies_its_item_once(app, client, run_db, pump):
    bundle = full_bundle()
    run_db(import_bundle, bundle)
    pump()
    bundle["claims"].append({"id": 5003002, "order_id": 2000004512})
    run_db(import_bundle, bundle)
    assert _events(run_db) == [("items_compatibilities", "MLA100")]
    pump()
    run_db(import_bundle, bundle)
    assert _events(run_db) == []
