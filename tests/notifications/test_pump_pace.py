"""How often a worker's notification pump takes its turn at the database: a pass, then a pause of
NOTIFY_POLL_MS, a quarter of it after a pass that found work, none after one that posted a full batch.
Under a steady stream of changes (a bulk job's items) every pass finds a few events; passes back to
back took SQLite's one writer from the job's consumers."""
import time

from app.services.notifications import pump, worker
from app.services.notifications.pump import BATCH


def gaps_between_passes(monkeypatch, answer, seconds=1.0, pause_ms=200):
    """The seconds between the starts of a pump's passes, each answering `answer`."""
    calls = []

    def pump_once(settings, receivers=None):
        calls.append(time.monotonic())
        return answer

    monkeypatch.setattr(worker, "pump_once", pump_once)
    thread = worker.NotificationPump({"NOTIFY_POLL_MS": pause_ms}).start()
    time.sleep(seconds)
    thread.stop()
    assert len(calls) >= 3
    return sorted(later - earlier for earlier, later in zip(calls, calls[1:], strict=False))


def test_a_pass_that_found_nothing_is_followed_by_the_pause(monkeypatch):
    assert gaps_between_passes(monkeypatch, (0, 0))[0] >= 0.19  # NOTIFY_POLL_MS, 200


def test_a_pass_that_found_a_few_events_is_followed_by_a_quarter_of_the_pause(monkeypatch):
    gaps = gaps_between_passes(monkeypatch, (7, 3))
    assert gaps[0] >= 0.045 and gaps[len(gaps) // 2] < 0.15  # a quarter: 50 ms


def test_a_pass_that_posted_a_full_batch_is_followed_by_the_next_at_once(monkeypatch):
    gaps = gaps_between_passes(monkeypatch, (0, BATCH))
    assert gaps[len(gaps) // 2] < 0.01


def test_a_pass_turns_events_into_notifications_until_a_batch_short_of_full(app, monkeypatch):
    batches = [BATCH, BATCH, 3, 0]
    monkeypatch.setattr(pump, "fan_out", lambda rest_ends=None: batches.pop(0))
    monkeypatch.setattr(pump, "deliver_due", lambda settings, executor=None, receivers=None: 0)
    with app.app_context():
        assert pump.pump_once(app.config) == (2 * BATCH + 3, 0)
    assert batches == [0]  # no pass of its own to learn that nothing was left
