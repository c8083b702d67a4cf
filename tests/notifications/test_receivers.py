"""A receiver that is down: after a pass without an acknowledged delivery its application's
notifications rest, then one probes it, and the others follow once a probe is acknowledged; those
past the retry window are kept as missed when it is probed."""
import datetime

from app.models import Notification
from app.models.base import utcnow
from app.services.notifications import pump_once
from app.services.notifications.receivers import MAX_REST_S, Receivers
from tests.helpers import Clock
from tests.notifications.conftest import AUTH, add_vehicle


def _all_due(run_db, **changes):
    run_db(lambda: Notification.update(next_at=datetime.datetime(2000, 1, 1), **changes).execute())


def _attempts(run_db):
    return run_db(lambda: sorted((n.resource, n.status, n.attempts) for n in Notification.select()))


def _two_failed(app, client, subscribe, receiver):
    """A receiver answering 503 subscribed, two writes, and the pass that posted both to it: (the
    clock of the worker's Receivers, a pass of that worker)."""
    clock = Clock()
    receivers = Receivers(clock)

    def pump():
        with app.app_context():
            return pump_once(app.config, receivers=receivers)

    subscribe(receiver.url)
    receiver.status = 503
    add_vehicle(client)
    add_vehicle(client, "MLA101")
    assert pump() == (2, 2)  # nothing known of the receiver yet: both posted, both failed (a rest of 1 s)
    return clock, pump


def test_a_down_receiver_is_probed_by_one_notification_a_rest_and_gets_all_once_it_answers(
        app, client, subscribe, receiver, run_db):
    clock, pump = _two_failed(app, client, subscribe, receiver)
    _all_due(run_db)
    assert pump() == (0, 0)  # resting: not even taken
    assert len(receiver.received) == 2
    clock.now += 1.1
    assert pump() == (0, 1)  # one probe; the other handed back without an attempt
    assert len(receiver.received) == 3
    assert sorted(a for _, _, a in _attempts(run_db)) == [1, 2]
    _all_due(run_db)
    clock.now += 1.1  # the second failed pass rests 2 s
    assert pump() == (0, 0)
    receiver.status = 200
    clock.now += 1
    assert pump() == (0, 1)  # the probe, acknowledged
    assert pump() == (0, 1)  # then the one it stood for, at once
    assert [status for _, status, _ in _attempts(run_db)] == ["SENT", "SENT"]
    assert sorted(b["resource"] for b in receiver.bodies()[-2:]) == [
        "/items/MLA100/compatibilities", "/items/MLA101/compatibilities"]


def test_a_probe_past_the_retry_window_keeps_the_notifications_it_stands_for_as_missed(
        app, client, subscribe, receiver, run_db):
    clock = Clock()
    receivers = Receivers(clock)
    subscribe(receiver.url)
    receiver.status = 500
    add_vehicle(client)
    add_vehicle(client, "MLA101")
    with app.app_context():
        pump_once(app.config, receivers=receivers)
    _all_due(run_db, received=datetime.datetime(2000, 1, 1))  # past the window (60 s in these tests)
    clock.now += 1.1
    with app.app_context():
        assert pump_once(app.config, receivers=receivers) == (0, 1)
    missed = client.get("/missed_feeds?app_id=5501", headers=AUTH).get_json()
    assert missed["paging"]["total"] == 2
    assert sorted(m["attempts"] for m in missed["messages"]) == [1, 2]  # the probe's second, the other's first


def test_rests_double_with_each_failed_pass_up_to_the_cap_and_end_with_an_acknowledgement():
    clock = Clock()
    receivers = Receivers(clock)
    rests = []
    for _ in range(9):
        receivers.note([("app", False), ("app", False)])  # one pass, however many failed in it
        rest = 0
        while receivers.resting() == ["app"]:
            clock.now += 0.5
            rest += 0.5
        rests.append(rest)
    assert rests == [1, 2, 4, 8, 16, 32, MAX_REST_S, MAX_REST_S, MAX_REST_S]
    assert receivers.failing() == ["app"]
    receivers.note([("app", False), ("app", True)])  # any acknowledged delivery
    assert receivers.resting() == [] and receivers.failing() == []


def _due_now(run_db):
    """The pending notifications that the query for what is due would walk now."""
    return run_db(lambda: sorted(n.resource for n in Notification.select().where(
        Notification.status == "PENDING", Notification.next_at <= utcnow())))


def test_a_resting_receivers_notifications_wait_past_its_rest_so_passes_do_not_walk_them(
        app, client, subscribe, receiver, run_db):
    clock, pump = _two_failed(app, client, subscribe, receiver)
    _all_due(run_db)
    clock.now += 1.1
    assert pump() == (0, 1)  # one probe, failed: a rest of 2 s; the other was handed back, due at once
    add_vehicle(client, "MLA102")  # written during the rest
    assert pump() == (1, 0)
    assert _due_now(run_db) == []  # the one handed back and the new one wait for the rest's end
    ends = run_db(lambda: max(n.next_at for n in Notification.select()))
    assert ends <= utcnow() + datetime.timedelta(seconds=2.5)  # not past it
    receiver.status = 200
    _all_due(run_db)
    clock.now += 2.1
    assert pump() == (0, 1)  # the probe, acknowledged
    assert pump() == (0, 2)
    assert [status for _, status, _ in _attempts(run_db)] == ["SENT"] * 3
