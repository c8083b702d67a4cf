"""SQLite: timestamps stored as integers, microseconds since 1970 in UTC (app/models/timestamps.py),
where peewee wrote 26-character texts. Every DATETIME column of every table is rewritten in place;
its declared type stays DATETIME, which also names the converter that reads it. PostgreSQL's
timestamps are not concerned."""
from app.models.timestamps import as_micros


def up(migrator, db):
    from app.db import is_postgres

    if is_postgres():
        return
    db.connection().create_function("as_micros", 1, as_micros, deterministic=True)
    for (table,) in db.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table'"
                                   " AND name NOT LIKE 'sqlite_%'").fetchall():
        for column in db.get_columns(table):
            if column.data_type.upper() == "DATETIME":
                db.execute_sql(f'UPDATE "{table}" SET "{column.name}" = as_micros("{column.name}")'
                               f' WHERE typeof("{column.name}") = \'text\'')
