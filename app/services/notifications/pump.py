"""What the workers do with the outbox: turn each event into one notification per subscribed
application (deleting the event in the same transaction), post the notifications that are due side
by side, retry with growing delays within NOTIFY_RETRY_WINDOW_S, then keep them as missed for N3.

Safe with several workers and with a worker killed anywhere: a notification is taken by moving its
`next_at` past a lease (a compare-and-set); one whose worker died is due again when the lease ends,
and is posted again with the same `_id` (at least once)."""
import datetime
import hashlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
from peewee import fn

from app.db import connection, is_postgres, write_transaction
from app.models import AccessToken, Application, Item, RefreshToken
from app.models.base import utcnow
from app.models.notifications import (
    BULK_JOBS,
    ITEMS_COMPATIBILITIES,
    MISSED,
    PENDING,
    SENT,
    Notification,
    NotificationEvent,
)
from app.services.notifications import delivery
from app.services.notifications.receivers import Receivers
from app.services.notifications.signing import signed_headers

log = logging.getLogger("app.notifications")
BATCH = 200
LEASE_S = 30  # longer than any delivery's deadline
MAX_DELAY_S = 600
MISSED_KEPT = datetime.timedelta(days=2)
CONCURRENT_DELIVERIES = 16


def resource_of(topic, subject):
    return f"/items/{subject}/compatibilities" if topic == ITEMS_COMPATIBILITIES else f"/compatibilities/bulk/{subject}"


def _subscribers(topic, user_ids):
    """{user id: [application]} of the applications subscribed to `topic` that each user owns or
    has granted access to (a live token)."""
    if not user_ids:  # a topic without events in this batch
        return {}
    apps = [a for a in Application.select().where(Application.callback_url.is_null(False))
            if topic in (a.topics or ())]
    if not apps:
        return {}
    by_id = {a.client_id: a for a in apps}
    grants = set()
    for model in (AccessToken, RefreshToken):
        grants.update(model.select(model.user, model.application).where(
            model.user.in_(list(user_ids)), model.application.in_(list(by_id)),
            model.revoked == False).distinct().tuples())  # noqa: E712 (a peewee expression)
    return {user_id: [a for a in apps if a.owner_id == user_id or (user_id, a.client_id) in grants]
            for user_id in user_ids}


def fan_out(rest_ends=None):
    """Turns waiting events into notifications; answers how many events it took. A resting
    application's (`rest_ends`, see Receivers) are due when its rest ends."""
    rest_ends = rest_ends or {}
    with write_transaction():
        events = list(NotificationEvent.select().order_by(NotificationEvent.id).limit(BATCH))
        if not events:
            return 0
        items = [e.subject for e in events if e.topic == ITEMS_COMPATIBILITIES]
        sellers = dict(Item.select(Item.id, Item.seller).where(Item.id.in_(items)).tuples()) if items else {}
        rows = []
        for topic in (ITEMS_COMPATIBILITIES, BULK_JOBS):
            mine = [e for e in events if e.topic == topic]
            users = {e: (sellers.get(e.subject) if topic == ITEMS_COMPATIBILITIES else e.user_id) for e in mine}
            subscribers = _subscribers(topic, {u for u in users.values() if u is not None})
            for event in mine:
                for app in subscribers.get(users[event], ()):
                    rows.append({"id": _notification_id(event, app.client_id), "event_id": event.id,
                                 "application_id": app.client_id, "topic": topic,
                                 "resource": resource_of(topic, event.subject), "user_id": users[event],
                                 "received": event.date_created,
                                 "next_at": max(event.date_created, rest_ends.get(app.client_id, event.date_created))})
        for start in range(0, len(rows), 100):
            Notification.insert_many(rows[start:start + 100]).on_conflict_ignore().execute()
        NotificationEvent.delete().where(NotificationEvent.id.in_([e.id for e in events])).execute()
    return len(events)


def _notification_id(event, client_id):
    """Stable: a second worker fanning out the same event makes the same ids. Unique even where an
    event id comes back once every notification of the first one is purged (SQLite): its time is in it."""
    return hashlib.sha256(f"{event.id}:{event.date_created.isoformat()}:{event.subject}:{client_id}"
                          .encode()).hexdigest()[:32]


def retry_delay(attempts):
    """After the n-th failed attempt: 1, 2, 4 ... seconds, at most MAX_DELAY_S."""
    return min(2 ** (attempts - 1), MAX_DELAY_S)


def _take_due(now, at_most, resting=()):
    """Notifications due now, but those of the `resting` applications, leased to this worker in one
    transaction: locked and skipped by any other worker's on PostgreSQL (SQLite has one writer at a
    time), their next_at moved past the lease."""
    with write_transaction():
        query = (Notification.select().where(Notification.status == PENDING, Notification.next_at <= now)
                 .order_by(Notification.next_at).limit(at_most))
        if resting:
            query = query.where(Notification.application_id.not_in(list(resting)))
        taken = list(query.for_update(skip_locked=True) if is_postgres() else query)
        if taken:
            Notification.update(next_at=now + datetime.timedelta(seconds=LEASE_S)).where(
                Notification.id.in_([n.id for n in taken])).execute()
    return taken


def _hand_back(held, now, failing, window_s):
    """The notifications a probe stands for, due again without an attempt; those of the failing
    applications past the retry window are kept as missed (no probe will come for them in time)."""
    with write_transaction():
        if held:
            Notification.update(next_at=now).where(Notification.id.in_([n.id for n in held])).execute()
        if failing:
            Notification.update(status=MISSED).where(
                Notification.status == PENDING, Notification.application_id.in_(failing),
                Notification.received < now - datetime.timedelta(seconds=window_s)).execute()


def body_of(notification, attempts, sent):
    return orjson.dumps({
        "_id": notification.id, "resource": notification.resource, "user_id": notification.user_id,
        "topic": notification.topic, "application_id": notification.application_id, "attempts": attempts,
        "sent": _iso(sent), "received": _iso(notification.received)})


def _iso(when):
    return when.isoformat(timespec="milliseconds") + "Z"


def _deliver(notification, app, settings):
    """(notification, attempts, sent, error or None): one POST; the database is not touched here."""
    attempts, sent = notification.attempts + 1, utcnow()
    if app is None or not app.callback_url:
        return notification, attempts, sent, "the application has no callback URL"
    body = body_of(notification, attempts, sent)
    headers = signed_headers(app.signing_secret, notification.id, int(time.time()), body)
    error = delivery.post(app.callback_url, body, headers, settings["NOTIFY_TIMEOUT_MS"] / 1000,
                          settings["NOTIFY_ALLOW_PRIVATE"])
    return notification, attempts, sent, error


def _after_failure(notification, attempts, sent, error, window_s):
    """A failed attempt's changes."""
    next_at = sent + datetime.timedelta(seconds=retry_delay(attempts))
    gives_up = next_at > notification.received + datetime.timedelta(seconds=window_s)
    log.info("notification %s to %s: attempt %d failed (%s)%s", notification.id, notification.application_id,
             attempts, error, "; kept as missed" if gives_up else "")
    return {"status": MISSED if gives_up else PENDING, "attempts": attempts, "sent": sent, "next_at": next_at,
            "last_error": error}


def _record(outcomes, window_s, rest_ends):
    """Every attempt's outcome, in one transaction (a worker's writes compete with the service's),
    and the pending notifications of the applications that now rest moved to their rest's end."""
    delivered = {}  # attempts: [(notification, sent)]: one statement for each group, not one a notification
    with write_transaction():
        for notification, attempts, sent, error in outcomes:
            if error is None:
                delivered.setdefault(attempts, []).append((notification, sent))
                continue
            Notification.update(**_after_failure(notification, attempts, sent, error, window_s)).where(
                Notification.id == notification.id).execute()
        for attempts, group in delivered.items():
            Notification.update(status=SENT, attempts=attempts, sent=max(sent for _, sent in group),
                                last_error=None).where(Notification.id.in_([n.id for n, _ in group])).execute()
        for client_id, ends in rest_ends.items():
            Notification.update(next_at=ends).where(
                Notification.status == PENDING, Notification.application_id == client_id,
                Notification.next_at < ends).execute()


def deliver_due(settings, executor=None, receivers=None):
    """Posts the notifications due now, side by side (a slow receiver holds one thread for at most
    its deadline); answers how many were attempted. `receivers` (Receivers): what this worker's
    earlier passes learnt of each receiver (by default nothing)."""
    receivers = receivers or Receivers()
    now = utcnow()
    taken = _take_due(now, BATCH, receivers.resting())
    if not taken:
        return 0
    taken, held = receivers.probes(taken)
    failing = sorted({n.application_id for n in taken} & set(receivers.failing()))  # those probed now
    if held or failing:
        _hand_back(held, now, failing, settings["NOTIFY_RETRY_WINDOW_S"])
    apps = {a.client_id: a for a in Application.select().where(
        Application.client_id.in_(list({n.application_id for n in taken})))}
    own = executor is None
    executor = executor or ThreadPoolExecutor(CONCURRENT_DELIVERIES, thread_name_prefix="notify")
    try:
        outcomes = list(executor.map(lambda n: _deliver(n, apps.get(n.application_id), settings), taken))
    finally:
        if own:
            executor.shutdown()
    receivers.note((notification.application_id, error is None) for notification, _, _, error in outcomes)
    posted_to = {notification.application_id for notification in taken}
    rest_ends = {c: ends for c, ends in receivers.rest_ends(utcnow()).items() if c in posted_to}
    _record(outcomes, settings["NOTIFY_RETRY_WINDOW_S"], rest_ends)
    return len(taken)


def purge_missed(now=None):
    """Missed notifications are kept two days (N3); delivered ones are not kept."""
    now = now or utcnow()
    with write_transaction():
        Notification.delete().where(Notification.status == SENT).execute()
        return Notification.delete().where(Notification.status == MISSED,
                                           Notification.received < now - MISSED_KEPT).execute()


def pump_once(settings, executor=None, receivers=None):
    """One pass: events to notifications, then the due ones posted. Answers (events, attempts)."""
    receivers = receivers or Receivers()
    with connection():
        events = 0
        while True:
            taken = fan_out(receivers.rest_ends(utcnow()))
            events += taken
            if taken < BATCH:  # a batch short of full took every event there was
                return events, deliver_due(settings, executor, receivers)


def pending_count():
    with connection():
        return (NotificationEvent.select(fn.COUNT(NotificationEvent.id)).scalar()
                + Notification.select().where(Notification.status == PENDING).count())
