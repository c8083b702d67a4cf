"""The outbox's statements, which every write runs, and the change feed's (N4): a user's change
records after a cursor, oldest first.

SQL text, not the query builder: PostgreSQL's page compares the (xid8, id) row value with the cursor
and keeps only the transactions older than the snapshot's xmin (feed.py says why), which peewee does
not express. Every value is a bound parameter; only the table and column names, fixed here, are
formatted in.
"""
from peewee import SQL, Select, fn

from app.db import db
from app.models import CompatibilityChange, Item
from app.models.base import utcnow
from app.models.notifications import Notification, NotificationEvent
from app.prepared_sql import execute_prepared, param
from app.services.history.change_record import COLUMNS

XID_COLUMN = "xid"
TABLE = CompatibilityChange._meta.table_name
# The records are `c`, their items `i` (COLUMNS names the item's id).
_COLUMNS = ", ".join(f'{"i" if c.model is Item else "c"}."{c.column_name}"' for c in COLUMNS)

POSTGRES_PAGE = (f'SELECT {_COLUMNS}, c."{XID_COLUMN}"::text FROM "{TABLE}" c '
                 f'JOIN "{Item._meta.table_name}" i ON i."key" = c."item_key" '
                 f'WHERE i."seller_id" = %s '
                 f'AND (c."{XID_COLUMN}", c."id") > (%s::text::xid8, %s) '
                 f'AND c."{XID_COLUMN}" < pg_snapshot_xmin(pg_current_snapshot()) '
                 f'ORDER BY c."{XID_COLUMN}", c."id" LIMIT %s')
# SQLite: CROSS JOIN keeps the records as the outer loop, read in id order from the cursor on, each
# record's item looked up by its key; otherwise SQLite reads every record of the seller's items through
# the (item_key, id) index and sorts them all for each page.
SQLITE_PAGE = (f'SELECT {_COLUMNS} FROM "{TABLE}" c CROSS JOIN "{Item._meta.table_name}" i '
               f'WHERE c."id" > ? AND i."key" = c."item_key" AND i."seller_id" = ? ORDER BY c."id" LIMIT ?')


def postgres_page(user_id, xid, record_id, limit):
    """Rows of COLUMNS plus the record's xid as text."""
    return db.execute_sql(POSTGRES_PAGE, (user_id, str(xid), record_id, limit)).fetchall()


def sqlite_page(user_id, record_id, limit):
    return db.execute_sql(SQLITE_PAGE, (record_id, user_id, limit)).fetchall()


def last_event_id():
    """The highest id of the events, waiting or fanned out (SQLite's outbox numbers its own)."""
    def build():
        ids = (NotificationEvent.select(fn.MAX(NotificationEvent.id).alias("last"))
               + Notification.select(fn.MAX(Notification.event_id)))
        return Select(columns=[fn.MAX(SQL('"last"'))]).from_(ids)
    return execute_prepared("outbox_last_id", build, {}).fetchone()[0]


def insert_event(row):
    """One event: `row` has topic, subject, and id on SQLite; user_id is optional."""
    columns = ("id", "topic", "subject", "user_id") if "id" in row else ("topic", "subject", "user_id")
    execute_prepared(("outbox_insert", columns), lambda: NotificationEvent.insert(
        {getattr(NotificationEvent, c): param(c) for c in (*columns, "date_created")}),
        {"user_id": None, **row, "date_created": NotificationEvent.date_created.db_value(utcnow())})
