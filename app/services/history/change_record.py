"""A change record: its columns as stored, and what H1 and the change feed answer of them. Apart
from the reads, which need the item's state, so that the outbox's statements (which every write
runs, and which the change feed's module holds) can name the columns without a cycle of imports."""
import datetime
import json
from dataclasses import dataclass

from app.models import CompatibilityChange, Item
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
    job_id: str | None = None


def _from_to(before, after):
    return None if before == after else FromTo(before, after)


C = CompatibilityChange
# Read as plain rows (see list_history), never as models: building model instances was a large share of a page.
# The item's id is its row's: a query of COLUMNS joins the items (with_item_ids), or selects the id it has.
COLUMNS = (C.id, Item.id, C.date_created, C.action, C.compatibility_id, C.product_id, C.universal, C.source,
           C.creation_source, C.note_from, C.note_to, C.note_status_from, C.note_status_to, C.restrictions_from,
           C.restrictions_to, C.actor_kind, C.actor_user_id, C.actor_client_id, C.request_id, C.job_id)
NO_CHANGES = Changes()


def with_item_ids(query):
    """A select of COLUMNS from the records, joined to their items for the items' ids."""
    return query.join(Item, on=(Item.key == C.item_key))


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
    action, source, creation_source, kind = (field.python_value(value) for field, value in (
        (C.action, action), (C.source, source), (C.creation_source, creation_source), (C.actor_kind, kind)))
    changes = Changes(_from_to(note_from, note_to), _from_to(status_from, status_to),
                      _from_to(restrictions_from, restrictions_to))
    return ChangeRecord(id_, item_id, date, action, compatibility_id, product_id, bool(universal), source,
                        creation_source, None if changes == NO_CHANGES else changes,
                        Actor(kind, user_id, client_id), rid, job_id)


