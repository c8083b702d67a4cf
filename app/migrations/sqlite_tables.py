"""What a migration that changes a column's type does on SQLite, which cannot alter one: the table is
built again and its rows are copied across."""
import re


def rebuild(db, model, suffix, types, values=None):
    """`model`'s table built again from its own statement with `types` ({column: declared type}) in
    place of those columns' types, its indexes as they were, and the rows of the old one (renamed
    `<table>_<suffix>` meanwhile, then dropped); `values` gives a column the SQL expression its rows'
    values are copied through (by default, as they are).

    The table's stored statement, not the model: a database several releases behind takes the
    migrations one after the other, and the columns of a later release's model are not yet there."""
    table = model._meta.table_name
    declared = [column.name for column in db.get_columns(table)]
    statement, indexes, old = set_aside(db, table, suffix)
    for column, declared_type in types.items():
        statement = re.sub(rf'("{column}") [A-Za-z]+(\(\d+(, ?\d+)?\))?', rf"\1 {declared_type}", statement,
                           count=1)
    db.execute_sql(statement)
    for index in indexes:
        db.execute_sql(index)
    names = ", ".join(f'"{name}"' for name in declared)
    selected = ", ".join((values or {}).get(name, f'"{name}"') for name in declared)
    db.execute_sql(f'INSERT INTO "{table}" ({names}) SELECT {selected} FROM "{old}"')
    db.execute_sql(f'DROP TABLE "{old}"')


def set_aside(db, table, suffix):
    """Renames `table` to `<table>_<suffix>` and drops its indexes, whose names the table built again
    takes; answers (the table's CREATE statement, its indexes' statements, the name it was set aside
    under), for the caller to build it again and copy the rows across."""
    old = f"{table}_{suffix}"
    statement = db.execute_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                               (table,)).fetchone()[0]
    indexes = [sql for (sql,) in db.execute_sql("SELECT sql FROM sqlite_master WHERE type = 'index'"
                                                " AND tbl_name = ? AND sql IS NOT NULL", (table,))]
    db.execute_sql(f'ALTER TABLE "{table}" RENAME TO "{old}"')
    for index in db.get_indexes(old):
        if not index.name.startswith("sqlite_autoindex"):
            db.execute_sql(f'DROP INDEX "{index.name}"')
    return statement, indexes, old
