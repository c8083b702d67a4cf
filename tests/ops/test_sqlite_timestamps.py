"""SQLite keeps timestamps as integers (app/models/timestamps.py), read back as the same datetimes; a
database written with texts is rewritten in place (0011)."""
import datetime

import pytest

from app.db import db, is_postgres
from app.migrations import create_schema
from app.models import CompatibilityChange, Item
from app.models.timestamps import from_micros, micros
from tests.compat.compat_data import GOL, SELLER_H, full_bundle, product, url

TABLES = {"compatibility": "date_created", "compatibility_change": "date_created", "item": "date_created"}


@pytest.fixture(autouse=True)
def sqlite_only(run_db, load_bundle):
    if run_db(is_postgres):
        pytest.skip("PostgreSQL's timestamp is 8 bytes already")
    load_bundle(full_bundle())


def _types():
    return {table: {kind for (kind,) in db.execute_sql(f'SELECT DISTINCT typeof("{column}") FROM "{table}"')}
            for table, column in TABLES.items()}


def test_micros_round_trip_and_order():
    moments = [datetime.datetime(1969, 12, 31, 23, 59, 59, 999999), datetime.datetime(2026, 11, 27, 15, 5, 30, 1),
               datetime.datetime(2026, 11, 27, 15, 5, 30, 2), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999)]
    assert [from_micros(micros(m)) for m in moments] == moments
    assert sorted(map(micros, moments)) == [micros(m) for m in moments]
    aware = datetime.datetime(2026, 11, 27, 12, 5, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=-3)))
    assert from_micros(micros(aware)) == moments[1].replace(microsecond=0)
    assert from_micros(b"2026-11-27 15:05:30.000001") == moments[1]  # a text written before 0011
    assert from_micros(str(micros(moments[2])).encode()) == moments[2]  # an integer, as sqlite3 hands it over


def test_timestamps_are_stored_as_integers_and_read_as_datetimes(client, run_db):
    client.post(url(), json={"products": [product(GOL[0])]}, headers=SELLER_H)
    assert run_db(_types) == {table: {"integer"} for table in TABLES}
    record = run_db(lambda: CompatibilityChange.select().order_by(CompatibilityChange.id.desc()).get())
    age = datetime.datetime.now(datetime.UTC).replace(tzinfo=None) - record.date_created
    assert datetime.timedelta(0) <= age < datetime.timedelta(minutes=1)
    # A comparison binds the datetime as the integer too.
    assert run_db(lambda: CompatibilityChange.select().where(
        CompatibilityChange.date_created == record.date_created).count()) == 1
    assert run_db(lambda: Item.select().where(Item.date_created < datetime.datetime(1970, 1, 2)).count()) == 0


def test_migration_turns_texts_into_integers(client, run_db):
    client.post(url(), json={"products": [product(GOL[0], note="N")]}, headers=SELLER_H)
    answers = (client.get(url(suffix="/history"), headers=SELLER_H).get_json(),
               client.get(url(), headers=SELLER_H).get_json())

    def as_texts():
        for (table,) in db.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table'"
                                       " AND name NOT LIKE 'sqlite_%'").fetchall():
            for column in db.get_columns(table):
                if column.data_type.upper() == "DATETIME":
                    rows = db.execute_sql(f'SELECT rowid, "{column.name}" FROM "{table}"').fetchall()
                    db.cursor().executemany(
                        f'UPDATE "{table}" SET "{column.name}" = ? WHERE rowid = ?',
                        [(None if v is None else v.isoformat(sep=" "), rowid) for rowid, v in rows])
        db.execute_sql("DELETE FROM schema_migration WHERE name = '0011_sqlite_integer_timestamps'")
    run_db(lambda: db.atomic()(as_texts)())
    assert run_db(_types) == {table: {"text"} for table in TABLES}

    assert run_db(create_schema) == ["0011_sqlite_integer_timestamps"]
    assert run_db(_types) == {table: {"integer"} for table in TABLES}
    assert (client.get(url(suffix="/history"), headers=SELLER_H).get_json(),
            client.get(url(), headers=SELLER_H).get_json()) == answers
