"""Model instances from a prepared query (app.db.prepared), as `Model.raw()` builds them, without
peewee resolving the cursor's columns again on every execution.

peewee's raw-query wrapper reads the cursor's description and maps each column to a field anew for
every statement; for the one-row reads every item route makes (the token check with the item) that
was most of the time spent turning the row into an `Item` (README, Benchmarks). A prepared query's
columns are the same on every run, so the mapping is made once per query and kept beside its SQL.
"""
from app.db import MAX_PREPARED, db, prepared

_columns = {}


def prepared_instances(model, key, build, values):
    """The rows of the prepared query `key` as `model` instances: a column named like one of the
    model's fields (or columns) sets that field, through its python_value; any other column (an
    alias, a joined table's column) becomes a plain attribute, as Model.raw() does."""
    sql, params = prepared(key, build, values)
    cursor = db.execute_sql(sql, params)
    cache_key = (key, model, db.obj.param)
    columns = _columns.get(cache_key)
    if columns is None:
        columns = _resolve(model, [column[0] for column in cursor.description])
        if len(_columns) < MAX_PREPARED:
            _columns[cache_key] = columns
    instances = []
    for row in cursor.fetchall():
        instance = model(__no_default__=1, **{
            name: value if convert is None or value is None else convert(value)
            for (name, convert), value in zip(columns, row, strict=True)})
        instance._dirty.clear()
        instances.append(instance)
    return instances


def _resolve(model, names):
    fields = model._meta.combined
    columns = [(fields[name].name, fields[name].python_value) if name in fields else (name, None)
               for name in names]
    if len({name for name, _ in columns}) != len(columns):
        raise ValueError(f"prepared_instances: two columns of {model.__name__} share a name: {names}")
    return columns
