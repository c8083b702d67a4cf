"""The transactional outbox: events written in the transaction of the change they describe, so a
change that rolls back notifies nobody and one that commits is notified even if every process dies
right after the commit."""
from app.db import db
from app.models.notifications import BULK_JOBS, ITEMS_COMPATIBILITIES, NotificationEvent


def _written_in_this_transaction(topic, subjects):
    """The subjects not yet recorded under `topic` by the open transaction (one event per subject and
    commit: a write touches an item several times). Outside a transaction each statement commits."""
    transactions = db.obj._state.transactions
    if not transactions:
        return list(subjects)
    seen = transactions[0].__dict__.setdefault("_notified", set())
    fresh = [s for s in subjects if (topic, s) not in seen]
    seen.update((topic, s) for s in fresh)
    return fresh


def items_changed(item_ids):
    """Called wherever an item's compatibility state changes (history.state.touch): API, bulk, import,
    operator and moderation writes alike."""
    fresh = _written_in_this_transaction(ITEMS_COMPATIBILITIES, dict.fromkeys(item_ids))
    for start in range(0, len(fresh), 500):
        NotificationEvent.insert_many([{"topic": ITEMS_COMPATIBILITIES, "subject": item_id}
                                       for item_id in fresh[start:start + 500]]).execute()


def job_finished(job_id, seller_id):
    """A bulk job ended (DONE, CANCELLED or FAILED), in the transaction that ends it."""
    if _written_in_this_transaction(BULK_JOBS, [job_id]):
        NotificationEvent.insert(topic=BULK_JOBS, subject=job_id, user_id=seller_id).execute()
