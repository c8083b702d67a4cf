"""Notifications (extensions.md, N): the outbox of events written in the change's own transaction,
and the deliveries a worker makes of them to each subscribed application."""
from peewee import BigAutoField, BigIntegerField, CharField, IntegerField, TextField

from app.models.base import BaseModel, DateTimeField, utcnow
from schemas.notifications import BULK_JOBS, ITEMS_COMPATIBILITIES, TOPICS

PENDING, SENT, MISSED = "PENDING", "SENT", "MISSED"
__all__ = ["BULK_JOBS", "ITEMS_COMPATIBILITIES", "MISSED", "PENDING", "SENT", "TOPICS", "Notification",
           "NotificationEvent"]


class NotificationEvent(BaseModel):
    """Something an application may be told of: one row per (topic, subject) and transaction,
    inserted by the writer in its transaction (a rollback takes it away) and deleted by the worker
    in the transaction that turns it into deliveries."""
    id = BigAutoField()
    topic = CharField(max_length=40)
    subject = CharField(max_length=40)  # the item id, or the bulk job id
    user_id = BigIntegerField(null=True)  # the job's seller; an item's seller is read at fan-out
    date_created = DateTimeField(default=utcnow)


class Notification(BaseModel):
    """One event for one application: PENDING until a delivery is acknowledged (SENT) or the retry
    window ends (MISSED, listed by N3). `next_at` is also the lease of a worker delivering it: a
    worker that dies mid-delivery leaves it due again once the lease ends."""
    id = CharField(primary_key=True, max_length=32)  # the body's _id and webhook-id: stable across retries
    event_id = BigIntegerField()
    application_id = CharField(max_length=64)
    topic = CharField(max_length=40)
    resource = CharField(max_length=200)
    user_id = BigIntegerField()
    status = CharField(max_length=10, default=PENDING)
    attempts = IntegerField(default=0)
    received = DateTimeField(default=utcnow)  # when the change committed (its event was written)
    sent = DateTimeField(null=True)  # the last attempt
    next_at = DateTimeField(default=utcnow)
    last_error = TextField(null=True)

    class Meta:
        indexes = (
            (("event_id", "application_id"), True),  # two workers fanning out one event make one each
            (("status", "next_at"), False),  # what is due
            (("application_id", "status", "received"), False),  # N3
        )
