"""What a migration that changes a column's type does on SQLite, which cannot alter one: the table is
built again from its model and its rows are copied across."""


def rebuild(db, model, suffix, values=None):
    """`model`'s table built again under the model's shape, with the rows of the old one (renamed
    `<table>_<suffix>` meanwhile, then dropped); `values` gives a column the SQL expression its rows'
    values are copied through (by default, as they are)."""
    table = model._meta.table_name
    old = f"{table}_{suffix}"
    declared = [column.name for column in db.get_columns(table)]
    db.execute_sql(f'ALTER TABLE "{table}" RENAME TO "{old}"')
    for index in db.get_indexes(old):  # their names are the new table's
        if not index.name.startswith("sqlite_autoindex"):
            db.execute_sql(f'DROP INDEX "{index.name}"')
    db.create_tables([model])
    names = ", ".join(f'"{name}"' for name in declared)
    selected = ", ".join((values or {}).get(name, f'"{name}"') for name in declared)
    db.execute_sql(f'INSERT INTO "{table}" ({names}) SELECT {selected} FROM "{old}"')
    db.execute_sql(f'DROP TABLE "{old}"')
