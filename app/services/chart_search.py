"""Chart search (endpoint 25): BRAND, STANDARD and the caller's SPECIFIC charts of an active domain."""
from peewee import Case, fn

from app.models import Chart, ChartFilterValue
from app.services.charts import (
    BRAND,
    CHART_TYPES,
    SPECIFIC,
    SPECIFIC_ONLY_SITES,
    STANDARD,
    chart_dict,
    get_site,
    require_active_domain,
)
from app.services.errors import forbidden
from app.services.tech_specs import get_domain, missing_attributes_error, required_attribute_ids, sent_values

TYPE_ORDER = Case(None, [(Chart.type == BRAND, 0), (Chart.type == STANDARD, 1)], 2)


def check_caller(caller_id, seller_id, header_caller_id):
    if seller_id != caller_id:
        raise forbidden(f"seller_id {seller_id} must be the caller's own user id ({caller_id})")
    if header_caller_id is not None and header_caller_id != caller_id:
        raise forbidden(f"x-caller-id {header_caller_id} must be the caller's own user id ({caller_id})")


def _attribute_filter(attribute_id, ids, names):
    """A chart passes when it does not carry the attribute, or carries one of the values sent.

    STANDARD charts have no BRAND, so a search by GENDER and BRAND still finds them.
    """
    carried = ChartFilterValue.select(ChartFilterValue.chart).where(
        (ChartFilterValue.chart == Chart.id) & (ChartFilterValue.attribute_id == attribute_id))
    value = ChartFilterValue.value_key.in_(sorted(names)) if names else None
    if ids:
        by_id = ChartFilterValue.value_id.in_(sorted(ids))
        value = by_id if value is None else (value | by_id)
    return ~fn.EXISTS(carried) | fn.EXISTS(carried.where(value))


def _type_filter(caller_id, site_id, chart_type):
    types = [chart_type] if chart_type else list(CHART_TYPES)
    if site_id in SPECIFIC_ONLY_SITES:
        types = [t for t in types if t == SPECIFIC]
    if not types:
        return None
    shared = [t for t in types if t != SPECIFIC]
    condition = Chart.type.in_(shared) if shared else None
    if SPECIFIC in types:
        own = (Chart.type == SPECIFIC) & (Chart.seller_id == caller_id)
        condition = own if condition is None else (condition | own)
    return condition


def search_charts(caller_id, body, header_caller_id, offset, limit):
    site_id, domain_id = body["site_id"], body["domain_id"]
    check_caller(caller_id, body["seller_id"], header_caller_id)
    get_site(site_id)
    domain = get_domain(require_active_domain(site_id, domain_id))
    sent = sent_values(body.get("attributes"))
    required, _ = required_attribute_ids(domain)
    missing = [attribute_id for attribute_id in required if attribute_id not in sent]
    if missing:
        raise missing_attributes_error(missing)
    paging = {"offset": offset, "limit": limit}
    condition = _type_filter(caller_id, site_id, body.get("type"))
    if condition is None:
        return {"charts": [], "paging": {"total": 0, **paging}}
    query = Chart.select().where((Chart.site == site_id) & (Chart.domain_id == domain_id) & condition)
    if body.get("main_attribute_id"):
        query = query.where(Chart.main_attribute_id == body["main_attribute_id"])
    for attribute_id, (ids, names) in sent.items():
        query = query.where(_attribute_filter(attribute_id, ids, names))
    total = query.count()
    page = query.order_by(TYPE_ORDER, Chart.id).limit(limit).offset(offset)
    return {"charts": [chart_dict(chart) for chart in page], "paging": {"total": total, **paging}}
