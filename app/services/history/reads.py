"""The history of an item's compatibilities, newest first (H1), and the retention purge."""
import datetime
import json
from dataclasses import dataclass

from app.db import db, write_transaction
from app.models import CompatibilityChange
from app.models.base import utcnow
from app.services.history.scope import Actor
from app.services.history.state import recount
from app.services.paging import Page


@dataclass(frozen=True)
class FromTo:
    before: object
    after: object


@dataclass(frozen=True)
class Changes:
    note: FromTo | None = None
    note_status: FromTo | None = None
    restrictions: FromTo | None = None


@dataclass(frozen=True)
class ChangeRecord:
    id: int
    item_id: str
    date_created: datetime.datetime
    action: str
    compatibility_id: str
    product_id: str | None
    universal: bool
    source: str | None
    creation_source: str | None
    changes: Changes | None
    actor: Actor
    request_id: str | None
    job_id: str | None = None


class HistoryPage(Page):
    """A page of ChangeRecords, newest first."""


def _from_to(before, after):
    return None if before == after else FromTo(before, after)


C = CompatibilityChange
# Read as plain rows (see list_history), never as models: building model instances was a large share of a page.
COLUMNS = (C.id, C.item_id, C.date_created, C.action, C.compatibility_id, C.product_id, C.universal, C.source,
           C.creation_source, C.note_from, C.note_to, C.note_status_from, C.note_status_to, C.restrictions_from,
           C.restrictions_to, C.actor_kind, C.actor_user_id, C.actor_client_id, C.request_id, C.job_id)
NO_CHANGES = Changes()


def to_record(row):
    """A ChangeRecord of a tuple of COLUMNS."""
    (id_, item_id, date, action, compatibility_id, product_id, universal, source, creation_source, note_from,
     note_to, status_from, status_to, restrictions_from, restrictions_to, kind, user_id, client_id, rid, job_id) = row
    if isinstance(date, str):  # the driver's own values (SQLite: text, JSON as text)
        date = datetime.datetime.fromisoformat(date)
    if isinstance(restrictions_from, str):
        restrictions_from = json.loads(restrictions_from)
    if isinstance(restrictions_to, str):
        restrictions_to = json.loads(restrictions_to)
    changes = Changes(_from_to(note_from, note_to), _from_to(status_from, status_to),
                      _from_to(restrictions_from, restrictions_to))
    return ChangeRecord(id_, item_id, date, action, compatibility_id, product_id, bool(universal), source,
                        creation_source, None if changes == NO_CHANGES else changes,
                        Actor(kind, user_id, client_id), rid, job_id)


def list_history(item, limit, offset, since=None):
    """A page of the change records of `item` (its row), newest first; `since` (naive UTC) keeps
    later ones. The item's existence and its seller are checked by the route's guard."""
    item_id = item.id
    # item_id as a range of one value, ordered by (item_id, id): only the (item_id, id) index gives
    # that order. With `=` PostgreSQL drops item_id from the ORDER BY and may walk the primary key
    # backwards, filtering every newer record of other items: slow for an item last changed
    # long ago.
    where = (C.item_id >= item_id) & (C.item_id <= item_id)
    if since is not None:
        where &= C.date_created > since
    # Without `since`, the count kept on the item: the same cost at 10 or 10,000 records, and the
    # item's row has it (no query of its own).
    total = C.select().where(where).count() if since is not None else item.history_count or 0
    query = C.select(*COLUMNS).where(where).order_by(C.item_id.desc(), C.id.desc()).limit(limit).offset(offset)
    # The cursor's rows, not peewee's row processing (its datetime parsing was most of a page).
    rows = db.execute_sql(*query.sql()).fetchall() if total > offset else ()
    return HistoryPage([to_record(row) for row in rows], total, offset, limit)


def _cutoff(retention_days, now):
    return (now or utcnow()) - datetime.timedelta(days=retention_days)


def count_purgeable(retention_days, now=None):
    """(records older than `retention_days` days, all records): what `purge_history` would delete,
    and whether that is everything (the CLI asks first then)."""
    old = C.select().where(C.date_created < _cutoff(retention_days, now)).count()
    return old, C.select().count()


def purge_history(retention_days, now=None):
    """Deletes the records older than `retention_days` days, in one transaction with the items'
    counts; answers how many."""
    old = C.date_created < _cutoff(retention_days, now)
    with write_transaction():
        item_ids = [i for (i,) in C.select(C.item_id).where(old).distinct().tuples()]
        purged = C.delete().where(old).execute()
        recount(item_ids)
    return purged
