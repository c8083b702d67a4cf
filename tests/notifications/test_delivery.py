"""Deliveries: the body and topics, the Standard Webhooks signature (verified by its library),
retries with `attempts` and a stable `_id`, missed feeds (N3), and nothing for a write that rolled back."""
import datetime
import time

import pytest
import standardwebhooks

from app.models import Notification, NotificationEvent
from app.services.history import state
from app.services.notifications import delivery
from app.services.notifications import pump as pump_module
from tests.bulk.conftest import upload
from tests.helpers import recorded_statements
from tests.notifications.conftest import AUTH, add_vehicle


def test_a_write_posts_one_signed_notification_with_the_marketplace_body(client, subscribe, pump, receiver):
    app = subscribe(receiver.url)
    add_vehicle(client)
    assert pump() == (1, 1)
    [(headers, body)] = receiver.received
    payload = standardwebhooks.Webhook(app["signing_secret"]).verify(body, {
        "webhook-id": headers["webhook-id"], "webhook-timestamp": headers["webhook-timestamp"],
        "webhook-signature": headers["webhook-signature"]})
    assert set(payload) == {"_id", "resource", "user_id", "topic", "application_id", "attempts", "sent", "received"}
    assert payload["resource"] == "/items/MLA100/compatibilities"
    assert (payload["topic"], payload["user_id"], payload["application_id"], payload["attempts"]) == (
        "items_compatibilities", 1001, "5501", 1)
    assert headers["webhook-id"] == payload["_id"]
    assert pump() == (0, 0)  # delivered once


def test_a_pass_records_its_acknowledged_deliveries_in_one_statement(
        app, client, subscribe, pump, receiver, run_db):
    subscribe(receiver.url)
    for item_id in ("MLA100", "MLA101", "MLA102"):
        add_vehicle(client, item_id)
    run_db(pump_module.fan_out)
    with app.app_context(), recorded_statements() as seen:
        assert pump() == (0, 3)
    updates = [sql for sql in seen if sql.lstrip().upper().startswith("UPDATE")]
    assert len(updates) == 2, updates  # the lease taken, then the three acknowledged at once
    stored = run_db(lambda: sorted((n.status, n.attempts, n.last_error) for n in Notification.select()))
    assert stored == [("SENT", 1, None)] * 3


def test_a_tampered_body_fails_the_librarys_verification(client, subscribe, pump, receiver):
    app = subscribe(receiver.url)
    add_vehicle(client)
    pump()
    [(headers, body)] = receiver.received
    with pytest.raises(standardwebhooks.webhooks.WebhookVerificationError):
        standardwebhooks.Webhook(app["signing_secret"]).verify(body.replace(b"MLA100", b"MLA101"), {
            k: headers[k] for k in ("webhook-id", "webhook-timestamp", "webhook-signature")})


def test_one_notification_per_item_and_commit(client, subscribe, pump, receiver):
    subscribe(receiver.url)
    response = client.post("/items/MLA100/compatibilities", headers=AUTH, json={
        "products": [{"id": p, "creation_source": "DEFAULT"} for p in ("MLA90001", "MLA90002", "MLA90003")]})
    assert response.status_code in (200, 201)
    add_vehicle(client, product_id="MLA90004")
    pump()
    assert [b["resource"] for b in receiver.bodies()] == ["/items/MLA100/compatibilities"] * 2
    assert len({b["_id"] for b in receiver.bodies()}) == 2


def test_each_commit_notifies_once_the_outbox_was_emptied(client, subscribe, pump, receiver):
    # SQLite gives a new row the table's highest id plus one: an event written once the worker has
    # emptied the outbox must not take the id of one already delivered and be dropped as its repeat.
    subscribe(receiver.url)
    for item_id in ("MLA100", "MLA101", "MLA102"):
        add_vehicle(client, item_id)
        assert pump() == (1, 1)
    assert [b["resource"] for b in receiver.bodies()] == [f"/items/{i}/compatibilities"
                                                          for i in ("MLA100", "MLA101", "MLA102")]
    assert len({b["_id"] for b in receiver.bodies()}) == 3


def test_only_subscribed_topics_and_the_sellers_applications(client, subscribe, pump, receiver):
    subscribe(receiver.url, ["bulk_jobs"])
    add_vehicle(client)
    add_vehicle(client, "MLA200", headers=AUTH | {"Authorization": "Bearer TEST-1002-other"})
    pump()
    assert receiver.received == []


def test_a_finished_bulk_job_posts_bulk_jobs(app, client, subscribe, pump, receiver):
    subscribe(receiver.url, ["bulk_jobs"])
    response = upload(client, [{"item_id": "MLA100", "action": "ADD",
                                "products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]}])
    job_id = response.get_json()["id"]
    with app.app_context():
        app.extensions["bulk_queue"].run_pending()
    pump()
    assert [(b["topic"], b["resource"]) for b in receiver.bodies()] == [
        ("bulk_jobs", f"/compatibilities/bulk/{job_id}")]


def test_a_write_that_rolls_back_notifies_nobody(client, subscribe, pump, receiver, run_db, monkeypatch):
    subscribe(receiver.url)
    real_touch = state.touch

    def touch_then_fail(*args, **kwargs):
        real_touch(*args, **kwargs)  # the history records and the outbox row are written...
        raise RuntimeError("...then the write fails")

    monkeypatch.setattr("app.services.history.record.touch", touch_then_fail)
    response = client.post("/items/MLA100/compatibilities", headers=AUTH,
                           json={"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}]})
    assert response.status_code == 500
    assert run_db(NotificationEvent.select().count) == 0
    pump()
    assert receiver.received == []


def test_failures_are_retried_with_the_same_id_then_kept_as_missed(client, subscribe, pump, receiver, run_db):
    subscribe(receiver.url)
    receiver.status = 500
    add_vehicle(client)
    pump()
    for _ in range(3):  # due again at once
        run_db(lambda: Notification.update(next_at=datetime.datetime(2000, 1, 1)).execute())
        pump()
    bodies = receiver.bodies()
    assert [b["attempts"] for b in bodies] == [1, 2, 3, 4]
    assert len({b["_id"] for b in bodies}) == 1
    assert client.get("/missed_feeds?app_id=5501", headers=AUTH).get_json()["messages"] == []
    # Past the window (60 s in these tests) the next failure keeps it for N3.
    run_db(lambda: Notification.update(next_at=datetime.datetime(2000, 1, 1),
                                       received=datetime.datetime(2000, 1, 1)).execute())
    pump()
    missed = client.get("/missed_feeds?app_id=5501&topic=items_compatibilities", headers=AUTH).get_json()
    assert [(m["_id"], m["attempts"]) for m in missed["messages"]] == [(bodies[0]["_id"], 5)]
    assert missed["paging"]["total"] == 1
    run_db(lambda: Notification.update(next_at=datetime.datetime(2000, 1, 1)).execute())
    assert pump() == (0, 0)  # missed: no more attempts


def test_retry_delays_grow():
    assert [pump_module.retry_delay(n) for n in (1, 2, 3, 4)] == [1, 2, 4, 8]
    assert pump_module.retry_delay(30) == pump_module.MAX_DELAY_S


def test_a_redirect_is_not_followed(client, subscribe, pump, receiver, run_db):
    subscribe(receiver.url)
    receiver.status, receiver.location = 302, "http://169.254.169.254/latest/meta-data"
    add_vehicle(client)
    pump()
    assert len(receiver.received) == 1
    assert "redirects are not followed" in run_db(lambda: Notification.get().last_error)


def test_a_slow_receiver_times_out_and_does_not_hold_the_others(client, subscribe, pump, receiver, run_db):
    subscribe(receiver.url)
    receiver.delay_s = 2
    add_vehicle(client)
    add_vehicle(client, "MLA101")
    started = datetime.datetime.now()
    pump()
    took = (datetime.datetime.now() - started).total_seconds()
    assert took < 1.5  # both posted side by side, each cut at the 500 ms deadline
    errors = run_db(lambda: [n.last_error for n in Notification.select()])
    assert all(e and "timed out" in e for e in errors), errors


def test_a_trickling_answer_is_cut_at_the_deadline_of_the_whole_delivery(trickling_receiver):
    started = time.monotonic()
    error = delivery.post(trickling_receiver.url, b"{}", {}, 0.5, allow_private=True)
    took = time.monotonic() - started
    assert error and "timed out" in error, error
    assert 0.45 <= took < 0.7, took  # the answer would take seconds, a byte at a time


def test_a_trickling_receiver_counts_a_failed_attempt(client, subscribe, pump, trickling_receiver, run_db):
    subscribe(trickling_receiver.url)
    add_vehicle(client)
    started = time.monotonic()
    assert pump() == (1, 1)
    assert time.monotonic() - started < 1.5
    [notification] = run_db(lambda: list(Notification.select()))
    assert (notification.status, notification.attempts) == ("PENDING", 1)
    assert "timed out" in notification.last_error


def test_the_demo_receiver_verifies_what_a_worker_posts(client, subscribe, pump):
    import io
    import threading

    from app.services.notifications.receiver import make_server

    app = subscribe("http://127.0.0.1:1/")
    out = io.StringIO()
    server = make_server(0, app["signing_secret"], out)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        subscribe(f"http://127.0.0.1:{server.server_port}/")
        add_vehicle(client)
        pump()
    finally:
        server.shutdown()
        server.server_close()
    assert out.getvalue().startswith("signature OK {")
