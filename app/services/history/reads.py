"""The history of an item's compatibilities, newest first (H1), and the retention purge."""
import datetime
from dataclasses import dataclass

from app.models import CompatibilityChange
from app.models.base import utcnow
from app.services.history.scope import Actor


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


@dataclass(frozen=True)
class Paging:
    total: int
    offset: int
    limit: int


@dataclass(frozen=True)
class HistoryPage:
    results: list
    paging: Paging


def _from_to(before, after):
    return None if before == after else FromTo(before, after)


def to_record(row):
    changes = Changes(_from_to(row.note_from, row.note_to), _from_to(row.note_status_from, row.note_status_to),
                      _from_to(row.restrictions_from, row.restrictions_to))
    return ChangeRecord(row.id, row.item_id, row.date_created, row.action, row.compatibility_id, row.product_id,
                        bool(row.universal), row.source, row.creation_source,
                        changes if changes != Changes() else None,
                        Actor(row.actor_kind, row.actor_user_id, row.actor_client_id), row.request_id)


def list_history(item_id, limit, offset, since=None):
    """A page of the item's change records, newest first; `since` (naive UTC) keeps later ones.
    The item's existence and its seller are checked by the route's guard."""
    where = CompatibilityChange.item_id == item_id
    if since is not None:
        where &= CompatibilityChange.date_created > since
    # Both queries walk the (item_id, id) index: a page costs the same at 10 or 10,000 records.
    total = CompatibilityChange.select().where(where).count()
    rows = (CompatibilityChange.select().where(where).order_by(CompatibilityChange.id.desc())
            .limit(limit).offset(offset)) if total > offset else ()
    return HistoryPage([to_record(row) for row in rows], Paging(total, offset, limit))


def purge_history(retention_days, now=None):
    """Deletes the records older than `retention_days` days; answers how many."""
    cutoff = (now or utcnow()) - datetime.timedelta(days=retention_days)
    return CompatibilityChange.delete().where(CompatibilityChange.date_created < cutoff).execute()
