"""An application's subscription (N1, N2), what the bundle carries of it, and its missed
notifications (N3)."""
from app.db import write_transaction
from app.errors import ApiError
from app.models import Application
from app.models.auth import new_signing_secret
from app.models.notifications import MISSED, Notification
from app.services.notifications.addresses import RefusedUrl, check_callback
from app.services.paging import page_of


def _owned(client_id, caller_id):
    app = Application.get_or_none(Application.client_id == client_id)
    if app is None:
        raise ApiError("application_not_found", f"Application {client_id} does not exist")
    if app.owner_id != caller_id:
        raise ApiError("forbidden", f"Application {client_id} belongs to another user: only its owner may "
                       "read or change it")
    if not app.signing_secret:  # made before its loader gave every application one
        app.signing_secret = new_signing_secret()
        Application.update(signing_secret=app.signing_secret).where(
            Application.client_id == client_id, Application.signing_secret.is_null()).execute()
        app = Application.get_by_id(client_id)
    app.topics = app.topics or []
    return app


def get_application(client_id, caller_id):
    """N1."""
    return _owned(client_id, caller_id)


def update_application(client_id, caller_id, changes, allow_private):
    """N2: the fields sent change, the others keep their values."""
    if changes.get("callback_url"):
        try:
            check_callback(changes["callback_url"], allow_private)
        except RefusedUrl as exc:
            raise ApiError("validation_error", f"callback_url: {exc}",
                           [{"code": "invalid", "message": str(exc), "field": "callback_url"}]) from None
    with write_transaction():
        _owned(client_id, caller_id)
        values = {}
        if "callback_url" in changes:
            values["callback_url"] = changes["callback_url"] or None
        if "topics" in changes:
            values["topics"] = list(dict.fromkeys(changes["topics"] or []))
        if values:
            Application.update(**values).where(Application.client_id == client_id).execute()
        return _owned(client_id, caller_id)


def list_missed(client_id, caller_id, topic, limit, offset):
    """N3: newest first."""
    _owned(client_id, caller_id)
    query = Notification.select().where(Notification.application_id == client_id, Notification.status == MISSED)
    if topic:
        query = query.where(Notification.topic == topic)
    return page_of(query.order_by(Notification.received.desc(), Notification.id.desc()), offset, limit)


def load_subscriptions(records):
    """The bundle's callback_url and topics of the records that carry them, and a secret for each
    application that has none. Few applications: one UPDATE each."""
    for r in records:
        values = {k: r[k] for k in ("callback_url", "topics") if k in r}
        if values:
            Application.update(**values).where(Application.client_id == r["client_id"]).execute()
    for (client_id,) in Application.select(Application.client_id).where(
            Application.signing_secret.is_null()).tuples():
        Application.update(signing_secret=new_signing_secret()).where(Application.client_id == client_id).execute()


def exported_subscription(row):
    """What an export writes of an application's subscription (its row as a dict)."""
    out = {}
    if row.get("callback_url"):
        out["callback_url"] = row["callback_url"]
    if row.get("topics"):
        out["topics"] = row["topics"]
    return out
