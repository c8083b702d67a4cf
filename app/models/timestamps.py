"""SQLite's timestamps as integers: microseconds since 1970 in UTC, instead of peewee's 26-character text.

Every DATETIME column holds at most 8 bytes then, where the text took 27 in the row and again in
each index that has the column. PostgreSQL's `timestamp` is 8 bytes already and is not concerned.

Python sees naive UTC datetimes, as before, whatever reads or binds them: sqlite3 adapts every
datetime it binds (peewee's fields and the statements run by hand alike) and converts every column
declared DATETIME that a statement reads (connections open with `detect_types=PARSE_DECLTYPES`,
app/db.py). An expression over such a column (a MAX) has no declared type: `from_micros` reads it.
Integers sort and compare as the texts did."""
import datetime
import sqlite3

EPOCH = datetime.datetime(1970, 1, 1)
_MICROSECOND = datetime.timedelta(microseconds=1)


def micros(moment):
    """The integer SQLite stores for a datetime (naive: UTC; aware: taken to UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return (moment - EPOCH) // _MICROSECOND


def from_micros(value):
    """The naive UTC datetime of a stored value: the integer, or the text written before (bytes as
    sqlite3 hands a converter, or str); None stays None."""
    if value is None or isinstance(value, datetime.datetime):
        return value
    if isinstance(value, int):
        return EPOCH + datetime.timedelta(microseconds=value)
    text = value.decode() if isinstance(value, bytes) else value
    if text.lstrip("-").isdigit():
        return EPOCH + datetime.timedelta(microseconds=int(text))
    return datetime.datetime.fromisoformat(text).replace(tzinfo=None)


def as_micros(value):
    """The integer SQLite stores for a datetime, or for a value written before (a text, an integer);
    None stays None."""
    return None if value is None else micros(from_micros(value))


sqlite3.register_adapter(datetime.datetime, micros)
sqlite3.register_converter("DATETIME", from_micros)
