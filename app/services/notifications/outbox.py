"""The transactional outbox: events written in the transaction of the change they describe, so a
change that rolls back notifies nobody and one that commits is notified even if every process dies
right after the commit."""
from app.db import db, is_postgres
from app.models.notifications import BULK_JOBS, ITEMS_COMPATIBILITIES, NotificationEvent
from app.services.notifications import queries


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


def _next_id():
    """SQLite: the id after every event still waiting or already fanned out. SQLite gives a new row
    the table's highest id plus one, so once a worker has emptied the outbox the next event would take
    the id of one already turned into notifications, and its own would be dropped as repeats of those
    (PostgreSQL's sequence never gives an id twice: None there). One writer at a time on SQLite, so
    no other transaction takes the same ids."""
    if is_postgres():
        return None
    return (queries.last_event_id() or 0) + 1


def _insert(rows):
    first = _next_id()
    if first is not None:
        rows = [{**row, "id": first + n} for n, row in enumerate(rows)]
    if len(rows) == 1:  # a write's usual event: one prepared statement
        queries.insert_event(rows[0])
        return
    for start in range(0, len(rows), 500):
        NotificationEvent.insert_many(rows[start:start + 500]).execute()


def items_changed(item_ids):
    """Called wherever an item's compatibility state changes (history.state.touch): API, bulk, import,
    operator and moderation writes alike."""
    fresh = _written_in_this_transaction(ITEMS_COMPATIBILITIES, dict.fromkeys(item_ids))
    if fresh:
        _insert([{"topic": ITEMS_COMPATIBILITIES, "subject": item_id} for item_id in fresh])


def job_finished(job_id, seller_id):
    """A bulk job ended (DONE, CANCELLED or FAILED), in the transaction that ends it."""
    if _written_in_this_transaction(BULK_JOBS, [job_id]):
        _insert([{"topic": BULK_JOBS, "subject": job_id, "user_id": seller_id}])
