"""Chart search (endpoint 25): BRAND, STANDARD and the caller's SPECIFIC charts of an active domain.

The search runs two queries (site and domain lookup, then the page with its total), each
prepared: compiled by peewee once per shape, not per request.
"""
from peewee import SQL, Case, fn

from app.db import execute_prepared, param, prepared
from app.errors import forbidden
from app.models import Chart, ChartFilterValue
from app.services.charts.reads import SPECIFIC_ONLY_SITES, active_chart_domain
from app.services.charts.sheets import (
    TEMPLATE_TAG,
    missing_attributes_error,
    required_attribute_ids,
    sent_values,
    sheet_attributes,
)
from app.services.paging import Page
from schemas.vocabulary import BRAND, CHART_TYPES, SPECIFIC, STANDARD

TYPE_ORDER = Case(None, [(Chart.type == BRAND, 0), (Chart.type == STANDARD, 1)], 2)


def check_caller(caller_id, seller_id, header_caller_id):
    if seller_id != caller_id:
        raise forbidden(f"seller_id {seller_id} must be the caller's own user id ({caller_id})")
    if header_caller_id is not None and header_caller_id != caller_id:
        raise forbidden(f"x-caller-id {header_caller_id} must be the caller's own user id ({caller_id})")


def _types(site_id, chart_type):
    types = [chart_type] if chart_type else list(CHART_TYPES)
    if site_id in SPECIFIC_ONLY_SITES:
        types = [t for t in types if t == SPECIFIC]
    return types


def _required(full_id, spec_input):
    """required_attribute_ids() from the sheet input already read with the domain."""
    if spec_input is not None:
        required = [a["id"] for a in sheet_attributes(spec_input).values() if TEMPLATE_TAG in (a.get("tags") or ())]
        if required:
            return required
    return required_attribute_ids(full_id)[0]  # no tagged attribute: the grid sheets' keys


def _search_values(caller_id, site_id, domain_id, types, main_attribute_id, sent):
    """The search's shape (what its SQL depends on) and its values by param name.

    The query is built from the shape alone (`_search_query`), so requests of one shape share
    SQL that peewee compiled once: compiling the correlated EXISTS filters was most of a search.
    """
    shared = [t for t in types if t != SPECIFIC]
    values = {"site": site_id, "domain": domain_id, "caller": caller_id, "main": main_attribute_id,
              **{f"type{n}": chart_type for n, chart_type in enumerate(shared)}}
    attributes = []
    for a, (attribute_id, (ids, names)) in enumerate(sent.items()):
        values[f"a{a}"] = attribute_id
        values.update((f"a{a}id{n}", value) for n, value in enumerate(sorted(ids)))
        values.update((f"a{a}name{n}", value) for n, value in enumerate(sorted(names)))
        attributes.append((len(ids), len(names)))
    return (len(shared), SPECIFIC in types, bool(main_attribute_id), tuple(attributes)), values


def _attribute_filter(a, n_ids, n_names):
    """A chart passes when it does not carry the a-th attribute sent, or carries one of its values.

    STANDARD charts have no BRAND, so a search by GENDER and BRAND still finds them.
    """
    carried = ChartFilterValue.select(ChartFilterValue.chart).where(
        (ChartFilterValue.chart == Chart.id) & (ChartFilterValue.attribute_id == param(f"a{a}")))
    value = None
    if n_names:
        value = ChartFilterValue.value_key.in_([param(f"a{a}name{n}") for n in range(n_names)])
    if n_ids:
        by_id = ChartFilterValue.value_id.in_([param(f"a{a}id{n}") for n in range(n_ids)])
        value = by_id if value is None else (value | by_id)
    return ~fn.EXISTS(carried) | fn.EXISTS(carried.where(value))


def _search_query(shape, *columns):
    """The charts matching a search of this shape (see `_search_values`)."""
    n_shared, specific, main_attribute, attributes = shape
    condition = Chart.type.in_([param(f"type{n}") for n in range(n_shared)]) if n_shared else None
    if specific:
        own = (Chart.type == SPECIFIC) & (Chart.seller_id == param("caller"))
        condition = own if condition is None else (condition | own)
    query = Chart.select(*columns).where(
        (Chart.site == param("site")) & (Chart.domain_id == param("domain")) & condition)
    if main_attribute:
        query = query.where(Chart.main_attribute_id == param("main"))
    for a, (n_ids, n_names) in enumerate(attributes):
        query = query.where(_attribute_filter(a, n_ids, n_names))
    return query


def search_charts(caller_id, body, header_caller_id, offset, limit):
    """Endpoint 25: a Page of Chart rows (without their rows)."""
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
        return Page([], 0, offset, limit)
    shape, values = _search_values(caller_id, site_id, domain_id, types, body.get("main_attribute_id"), sent)
    # The total rides on every row of the page: one query instead of a count and a page.
    sql, params = prepared(("chart_search_page", shape), lambda: (
        _search_query(shape).select_extend(fn.COUNT(SQL("*")).over().alias("search_total"))
        .order_by(TYPE_ORDER, Chart.id).limit(param("limit")).offset(param("offset"))),
        {**values, **paging})
    charts = list(Chart.raw(sql, *params))
    if charts:
        total = charts[0].search_total
    elif offset:
        # A page past the end has no row to carry the total.
        total = execute_prepared(("chart_search_count", shape),
                                 lambda: _search_query(shape, fn.COUNT(Chart.id)), values).fetchone()[0]
    else:
        total = 0
    return Page(charts, total, offset, limit)
