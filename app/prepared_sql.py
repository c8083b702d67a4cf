"""Prepared queries: compiled by peewee once per shape and run with each call's values by name
(`prepared`, `execute_prepared`), and the plans PostgreSQL runs them by (`generic_plans`)."""
from contextlib import contextmanager
from operator import itemgetter

from peewee import Value

from app.db import db, is_postgres


class Param:
    """A named placeholder in a prepared query (see `prepared`)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def param(name):
    """The placeholder of `values[name]` in a query built for `prepared`."""
    return Value(Param(name), converter=False)


# Past this many keys (a flood of unusual query shapes) queries are compiled per call instead of
# growing the cache without bound.
MAX_PREPARED = 512
_prepared = {}


def prepared(key, build, values):
    """(sql, params) of the query `build()` returns, compiled by peewee once per key and dialect
    instead of on every call: for hot queries, where compiling the same SQL again is a visible cost.
    Each area's queries module names its prepared queries; business code calls those functions.
    Every `param(name)` in the query takes `values[name]`; other values are constants
    of the query, the same on every call. The key names the query's shape: a builder whose
    query varies (the number of values in an IN, optional filters) puts that in the key.

    Run the result with `db.execute_sql(sql, params)` or `Model.raw(sql, *params)`.
    """
    cache_key = (key, db.obj.param, db.obj.quote)
    compiled = _prepared.get(cache_key)
    if compiled is None:
        sql, params = build().sql()
        compiled = sql, _binder(params)
        if len(_prepared) < MAX_PREPARED:
            _prepared[cache_key] = compiled
    sql, bind = compiled
    return sql, bind(values)


def _binder(params):
    """The function that makes a compiled query's params from `values`: each Param's value by
    name, every other param as compiled. When all are Params (the usual case), one itemgetter
    call instead of a Python loop over them, which showed in statements of many params."""
    if not all(isinstance(p, Param) for p in params):
        return lambda values: [values[p.name] if isinstance(p, Param) else p for p in params]
    if len(params) < 2:
        return lambda values: [values[p.name] for p in params]
    return itemgetter(*(p.name for p in params))


def execute_prepared(key, build, values):
    """The cursor of a prepared query run with `values` (see `prepared`)."""
    return db.execute_sql(*prepared(key, build, values))


@contextmanager
def generic_plans():
    """Prepared statements run inside are run by their generic plans on PostgreSQL, made once per
    connection, instead of being planned again with each run's values.

    Under its default `plan_cache_mode` the server weighs a generic plan against custom ones by their
    estimates; a statement that unions and joins many index lookups can keep being planned on every
    run where the generic plan runs as fast, so that planning becomes most of its time. Only for
    statements whose every plan walks the same indexes: a value-sensitive one (a range, a skewed
    column) needs its custom plan. The setting is the connection's, so it is put back before the
    connection serves anything else; a connection that cannot take it back is not pooled again."""
    if not is_postgres():
        yield
        return
    db.execute_sql("SET plan_cache_mode = force_generic_plan")
    try:
        yield
    finally:
        try:
            db.execute_sql("RESET plan_cache_mode")
        except Exception:
            if hasattr(db.obj, "manual_close"):
                db.obj.manual_close()
            raise
