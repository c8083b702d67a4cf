"""A compatibility's source and creation_source, and a change record's action, source, creation_source
and actor kind, stored as small integers (app/models/word_codes.py) where they were text.

A word of no vocabulary stops the upgrade before anything changes, naming its table, column and
words, rather than becoming NULL. PostgreSQL changes each table's columns in one ALTER (one rewrite
of the table). SQLite cannot change a column's type: each table is built again with those columns
declared SMALLINT and its rows copied across (as 0009 did), then the words become numbers in place."""
from app.migrations.sqlite_tables import rebuild
from app.models.word_codes import WordCodeField


def _coded(model):
    return [f for f in model._meta.sorted_fields if isinstance(f, WordCodeField)]


def _words(field, numbers=False):
    """The column's words as SQL literals (and their numbers as text, with `numbers`)."""
    return ", ".join(f"'{word}'" for word in (field.words if numbers else field.codes) if word)


def _case(field):
    column = f'"{field.column_name}"'
    whens = " ".join(f"WHEN '{word}' THEN {number}" for word, number in field.codes.items() if word)
    return f"CASE {column} {whens} END"


def _check(db, model):
    """Raise, naming them, if a coded column holds a text that is none of its words."""
    table = model._meta.table_name
    for f in _coded(model):
        column = f'"{f.column_name}"'
        strange = [w for (w,) in db.execute_sql(
            f'SELECT DISTINCT {column} FROM "{table}" WHERE {column} IS NOT NULL'
            f" AND CAST({column} AS TEXT) NOT IN ({_words(f)}, {_words(f, numbers=True)})")]
        if strange:
            raise RuntimeError(f"{table}.{f.column_name} holds {', '.join(map(repr, strange))}, which are none of "
                               f"{_words(f)}: correct those rows, then run the upgrade again")


def _postgres(db, model):
    table, fields = model._meta.table_name, _coded(model)
    types = dict(db.execute_sql("SELECT column_name, data_type FROM information_schema.columns"
                                " WHERE table_schema = current_schema() AND table_name = %s", (table,)).fetchall())
    pending = [f for f in fields if types[f.column_name] != "smallint"]
    if pending:
        db.execute_sql(f'ALTER TABLE "{table}" ' + ", ".join(
            f'ALTER COLUMN "{f.column_name}" TYPE smallint USING {_case(f)}' for f in pending))


def _sqlite(db, model):
    table, fields = model._meta.table_name, _coded(model)
    declared = {c.name: c.data_type for c in db.get_columns(table)}
    if any(declared[f.column_name].upper() != "SMALLINT" for f in fields):
        rebuild(db, model, "before_codes", {f.column_name: "SMALLINT" for f in fields})
    for f in fields:
        db.execute_sql(f'UPDATE "{table}" SET "{f.column_name}" = {_case(f)}'
                       f' WHERE typeof("{f.column_name}") = \'text\'')


def up(migrator, db):
    from app.db import is_postgres
    from app.models import Compatibility, CompatibilityChange

    models = (Compatibility, CompatibilityChange)
    for model in models:
        _check(db, model)
    for model in models:
        (_postgres if is_postgres() else _sqlite)(db, model)
