"""The change feed (N4): every committed change of a user's items exactly once, oldest first, while
writers commit concurrently.

A record's id is taken from a sequence before its transaction commits, so ids are not commit order: a
reader paging by id alone passes a transaction that took a lower id and commits later, and never sees
it. SQLite has one writer at a time (BEGIN IMMEDIATE), so there ids are commit order. PostgreSQL: each
record carries its transaction's id (`xid`, an xid8 taken by pg_current_xact_id() as it is inserted);
a page holds only records whose transaction is older than every transaction still running
(xid < pg_snapshot_xmin of the reading statement's snapshot): all of those have ended, so every one
that committed is visible in that same snapshot. The cursor is (xid, id), and any record that becomes
visible later belongs to a transaction at or above that xmin, so it sorts after every record already
read: no gap and no repeat. The price: a page waits for the oldest running transaction that has an xid
(one that writes) to end, and xids and snapshots are the server's, so that is another database's too.

The order is by transaction id, not commit order: a transaction that took its id first (an import
locking its items one by one, a bulk job's batch) sorts first even when it changed an item after a
younger transaction did. Within an item, record ids are commit order (taken under the item's lock,
held until commit), which is what a consumer rebuilding state orders by (README, N4)."""
from app.db import db, is_postgres
from app.services.history.change_record import to_record
from app.services.notifications import queries
from app.services.notifications.queries import TABLE, XID_COLUMN


def ensure_feed_column():
    """PostgreSQL: the records' transaction id and the feed's index (a fresh schema and the migration)."""
    if not is_postgres():
        return
    db.execute_sql(f'ALTER TABLE "{TABLE}" ADD COLUMN IF NOT EXISTS "{XID_COLUMN}" xid8 NOT NULL '
                   "DEFAULT pg_current_xact_id()")
    db.execute_sql(f'CREATE INDEX IF NOT EXISTS "{TABLE}_xid_id" ON "{TABLE}" ("{XID_COLUMN}", "id")')


def parse_cursor(after):
    """(xid, id) of an `after` (`xid.id` on PostgreSQL, `id` on SQLite); (0, 0) for the first page."""
    if not after:
        return 0, 0
    xid, _, record_id = after.rpartition(".")
    return int(xid or 0), int(record_id)


def changes(user_id, after, limit):
    """(records with item_id, next_after) of the user's items after the cursor."""
    xid, record_id = parse_cursor(after)
    if is_postgres():
        rows = queries.postgres_page(user_id, xid, record_id, limit)
        records = [to_record(row[:-1]) for row in rows]
        last = f"{rows[-1][-1]}.{rows[-1][0]}" if rows else (after or "0.0")
        return records, last
    rows = queries.sqlite_page(user_id, record_id, limit)
    records = [to_record(row) for row in rows]
    return records, str(rows[-1][0]) if rows else (after or "0")
