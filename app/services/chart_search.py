"""Chart search (endpoint 25): BRAND, STANDARD and the caller's SPECIFIC charts of an active domain.

The search runs two queries (site and domain lookup, then the page with its total) whose SQL is
compiled once per shape: peewee compiling the correlated EXISTS filters was ~90% of query time.
"""
from peewee import SQL, Case, Value, fn

from app.db import db
from app.models import Chart, ChartFilterValue
from app.services.charts import (
    BRAND,
    CHART_TYPES,
    SPECIFIC,
    SPECIFIC_ONLY_SITES,
    STANDARD,
    active_chart_domain,
    chart_dict,
)
from app.services.errors import forbidden
from app.services.tech_specs import (
    TEMPLATE_TAG,
    missing_attributes_error,
    required_attribute_ids,
    sent_values,
    sheet_attributes,
)

TYPE_ORDER = Case(None, [(Chart.type == BRAND, 0), (Chart.type == STANDARD, 1)], 2)
# Each distinct shape (types, attributes, values per attribute) is compiled once; past this many
# shapes (unusual requests) the query is compiled per request instead of growing the cache.
MAX_SHAPES = 256
_shapes = {}


class Slot:
    """A placeholder for the i-th request value in a query compiled once and run many times."""

    def __init__(self, index):
        self.index = index


class Slots:
    def __init__(self):
        self.values = []

    def __call__(self, value):
        self.values.append(value)
        return Value(Slot(len(self.values) - 1), converter=False)

    def many(self, values):
        return [self(value) for value in values]


def _compiled(shape, build, values):
    """(sql, params) of build(slots)'s query for `values`, compiled once per shape and dialect."""
    key = (shape, db.obj.param, db.obj.quote)
    compiled = _shapes.get(key)
    if compiled is None:
        compiled = build(Slots()).sql()
        if len(_shapes) < MAX_SHAPES:
            _shapes[key] = compiled
    sql, params = compiled
    # Slots stand for request values; anything else in params is a constant of the query itself.
    return sql, [values[p.index] if isinstance(p, Slot) else p for p in params]


def check_caller(caller_id, seller_id, header_caller_id):
    if seller_id != caller_id:
        raise forbidden(f"seller_id {seller_id} must be the caller's own user id ({caller_id})")
    if header_caller_id is not None and header_caller_id != caller_id:
        raise forbidden(f"x-caller-id {header_caller_id} must be the caller's own user id ({caller_id})")


def _attribute_filter(slot, attribute_id, ids, names):
    """A chart passes when it does not carry the attribute, or carries one of the values sent.

    STANDARD charts have no BRAND, so a search by GENDER and BRAND still finds them.
    """
    carried = ChartFilterValue.select(ChartFilterValue.chart).where(
        (ChartFilterValue.chart == Chart.id) & (ChartFilterValue.attribute_id == slot(attribute_id)))
    value = ChartFilterValue.value_key.in_(slot.many(names)) if names else None
    if ids:
        by_id = ChartFilterValue.value_id.in_(slot.many(ids))
        value = by_id if value is None else (value | by_id)
    return ~fn.EXISTS(carried) | fn.EXISTS(carried.where(value))


def _types(site_id, chart_type):
    types = [chart_type] if chart_type else list(CHART_TYPES)
    if site_id in SPECIFIC_ONLY_SITES:
        types = [t for t in types if t == SPECIFIC]
    return types


def _type_filter(slot, caller_id, types):
    shared = [t for t in types if t != SPECIFIC]
    condition = Chart.type.in_(slot.many(shared)) if shared else None
    if SPECIFIC in types:
        own = (Chart.type == SPECIFIC) & (Chart.seller_id == slot(caller_id))
        condition = own if condition is None else (condition | own)
    return condition


def _required(full_id, spec_input):
    """required_attribute_ids() from the sheet input already read with the domain."""
    if spec_input is not None:
        required = [a["id"] for a in sheet_attributes(spec_input).values() if TEMPLATE_TAG in (a.get("tags") or ())]
        if required:
            return required
    return required_attribute_ids(full_id)[0]  # no tagged attribute: the grid sheets' keys


def _search_query(slot, caller_id, site_id, domain_id, types, main_attribute_id, sent, *columns):
    """The matching charts; every request value goes through `slot`, in the same order each time."""
    query = Chart.select(*columns).where((Chart.site == slot(site_id)) & (Chart.domain_id == slot(domain_id))
                                 & _type_filter(slot, caller_id, types))
    if main_attribute_id:
        query = query.where(Chart.main_attribute_id == slot(main_attribute_id))
    for attribute_id, (ids, names) in sent.items():
        query = query.where(_attribute_filter(slot, attribute_id, sorted(ids), sorted(names)))
    return query


def search_charts(caller_id, body, header_caller_id, offset, limit):
    site_id, domain_id = body["site_id"], body["domain_id"]
    check_caller(caller_id, body["seller_id"], header_caller_id)
    full_id, spec_input = active_chart_domain(site_id, domain_id)
    sent = sent_values(body.get("attributes"))
    required = _required(full_id, spec_input)
    missing = [attribute_id for attribute_id in required if attribute_id not in sent]
    if missing:
        raise missing_attributes_error(missing)
    paging = {"offset": offset, "limit": limit}
    types = _types(site_id, body.get("type"))
    if not types:
        return {"charts": [], "paging": {"total": 0, **paging}}
    main_attribute_id = body.get("main_attribute_id")
    slots = Slots()
    _search_query(slots, caller_id, site_id, domain_id, types, main_attribute_id, sent)
    values = slots.values
    shape = (tuple(types), bool(main_attribute_id), tuple((len(ids), len(names)) for ids, names in sent.values()))

    def page(slot):
        query = _search_query(slot, caller_id, site_id, domain_id, types, main_attribute_id, sent)
        # The total rides on every row of the page: one query instead of a count and a page.
        return (query.select_extend(fn.COUNT(SQL("*")).over().alias("search_total"))
                .order_by(TYPE_ORDER, Chart.id).limit(slot(limit)).offset(slot(offset)))

    sql, params = _compiled(("page", *shape), page, [*values, limit, offset])
    charts = list(Chart.raw(sql, *params))
    if charts:
        total = charts[0].search_total
    elif offset:
        # A page past the end has no row to carry the total.
        sql, params = _compiled(("count", *shape), lambda slot: _search_query(
            slot, caller_id, site_id, domain_id, types, main_attribute_id, sent, fn.COUNT(Chart.id)), values)
        total = db.execute_sql(sql, params).fetchone()[0]
    else:
        total = 0
    return {"charts": [chart_dict(chart) for chart in charts], "paging": {"total": total, **paging}}
