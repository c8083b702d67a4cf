"""Model instances from a prepared query (app.prepared_sql.prepared), as `Model.raw()` builds them, without
peewee resolving the cursor's columns again on every execution.

peewee's raw-query wrapper reads the cursor's description and maps each column to a field anew for
every statement; for the one-row reads every item route makes (the token check with the item) that
was most of the time spent turning the row into an `Item`. A prepared query's
columns are the same on every run, so the mapping is made once per query and kept beside its SQL.
"""
from peewee import CharField, Field, FloatField, ForeignKeyField, IntegerField

from app.db import db
from app.prepared_sql import MAX_PREPARED, prepared

_columns = {}


def prepared_instances(model, key, build, values):
    """The rows of the prepared query `key` as `model` instances: a column named like one of the
    model's fields (or columns) sets that field, through its python_value when that changes
    anything (`_converter`); any other column (an alias, a joined table's column) becomes a plain
    attribute, as Model.raw() does."""
    sql, params = prepared(key, build, values)
    cursor = db.obj.execute_sql(sql, params)  # db.obj: see app/http/current.py
    cache_key = (key, model, db.obj.param)
    columns = _columns.get(cache_key)
    if columns is None:
        columns = _resolve(model, [column[0] for column in cursor.description])
        if len(_columns) < MAX_PREPARED:
            _columns[cache_key] = columns
    fields, extras = columns
    instances = []
    for row in cursor.fetchall():
        instances.append(_instance(model, fields, extras, row))
    return instances


def _instance(model, fields, extras, row):
    """What `model(__no_default__=1, **values)` then `_dirty.clear()` make of a row, without going
    through each field's descriptor: a stored row's values go straight into `__data__`, as the
    descriptors would put them (a foreign key's raw id included: no related instance is cached),
    and nothing is dirty. Built through the descriptors, the item read spent more on this than
    on its query."""
    instance = model.__new__(model)
    instance.__data__ = {name: value if convert is None or value is None else convert(value)
                         for name, convert, at in fields for value in (row[at],)}
    instance._dirty = set()
    instance.__rel__ = {}
    for name, at in extras:
        setattr(instance, name, row[at])
    return instance


def _resolve(model, names):
    """([(field name, python_value, position)], [(attribute name, position)]): the columns that
    are model fields, and the others (aliases, joined columns), which become plain attributes."""
    combined = model._meta.combined
    fields, extras = [], []
    for at, name in enumerate(names):
        if name in combined:
            fields.append((combined[name].name, _converter(combined[name]), at))
        else:
            extras.append((name, at))
    attribute_names = [name for name, _, _ in fields] + [name for name, _ in extras]
    if len(set(attribute_names)) != len(attribute_names):
        raise ValueError(f"prepared_instances: two columns of {model.__name__} share a name: {names}")
    return fields, extras


# What these fields' python_value makes of a value is what both drivers already answer for their
# columns: a str from a text column (SQLite stores numbers given to one as text), an int from an
# integer one, a float from a real one. Calling it anyway was a visible share of turning the item
# read's row into an Item.
_DRIVER_TYPED = {CharField.adapt, IntegerField.adapt, FloatField.adapt}


def _converter(field):
    """The field's python_value, or None when it would hand back the driver's value unchanged."""
    column = field
    while isinstance(column, ForeignKeyField):
        column = column.rel_field
    if type(column).python_value is Field.python_value and type(column).adapt in _DRIVER_TYPED:
        return None
    return field.python_value
