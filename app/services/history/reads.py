"""The history of an item's compatibilities, newest first (H1), and the retention purge."""
import datetime

from peewee import Value, fn

from app.db import db, write_transaction
from app.models.base import utcnow
from app.services.history.change_record import COLUMNS, C, to_record
from app.services.history.state import recount
from app.services.paging import Page


class HistoryPage(Page):
    """A page of ChangeRecords, newest first."""


def list_history(item, limit, offset, since=None):
    """A page of the change records of `item` (its row), newest first; `since` (naive UTC) keeps
    later ones. The item's existence and its seller are checked by the route's guard."""
    key = item.key
    # The item as a range of one key, ordered by (item_key, id): only the (item_key, id) index gives
    # that order. With `=` PostgreSQL drops item_key from the ORDER BY and may walk the primary key
    # backwards, filtering every newer record of other items: slow for an item last changed
    # long ago.
    where = (C.item_key >= key) & (C.item_key <= key)
    if since is not None:
        where &= C.date_created > since
    # Without `since`, the count kept on the item: the same cost at 10 or 10,000 records, and the
    # item's row has it (no query of its own).
    total = C.select().where(where).count() if since is not None else item.history_count or 0
    # The item's id is known: the page does not read its row again.
    columns = (COLUMNS[0], Value(item.id), *COLUMNS[2:])
    query = C.select(*columns).where(where).order_by(C.item_key.desc(), C.id.desc()).limit(limit).offset(offset)
    # The cursor's rows, not peewee's row processing (its datetime parsing was most of a page).
    rows = db.execute_sql(*query.sql()).fetchall() if total > offset else ()
    return HistoryPage([to_record(row) for row in rows], total, offset, limit)


def _cutoff(retention_days, now):
    return (now or utcnow()) - datetime.timedelta(days=retention_days)


def _older_than(cutoff):
    """The records written before `cutoff`, found through the primary key: the dates have no index
    (it cost each change record as much as its item's index does, for a purge run once a day).

    Records are numbered as they are written, so the first id whose record is not older than the
    cutoff is found by bisection, a few dozen lookups by key, and the purge reads only the ids
    below it. A record written around the cutoff by a transaction that took its id before an
    older one's may sit on the other side of that id: it stays until the next purge, and no
    record younger than the cutoff is ever taken (the date is checked too)."""
    low, high = C.select(fn.MIN(C.id), fn.MAX(C.id)).scalar(as_tuple=True)
    if low is None:
        return C.date_created < cutoff
    high += 1
    while low < high:
        middle = (low + high) // 2
        date = C.select(C.date_created).where(C.id >= middle).order_by(C.id).limit(1).scalar()
        if date >= cutoff:
            high = middle
        else:
            low = middle + 1
    return (C.id < low) & (C.date_created < cutoff)


def count_purgeable(retention_days, now=None):
    """(records older than `retention_days` days, all records): what `purge_history` would delete,
    and whether that is everything (the CLI asks first then)."""
    old = C.select().where(_older_than(_cutoff(retention_days, now))).count()
    return old, C.select().count()


def purge_history(retention_days, now=None):
    """Deletes the records older than `retention_days` days, in one transaction with the items'
    counts; answers how many."""
    old = _older_than(_cutoff(retention_days, now))
    with write_transaction():
        item_keys = [k for (k,) in C.select(C.item_key).where(old).distinct().tuples()]
        purged = C.delete().where(old).execute()
        recount(item_keys)
    return purged
