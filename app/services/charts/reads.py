"""Chart domains per site (22), chart domains by type (26), and reading a chart whole."""
from dataclasses import dataclass

from app.errors import ApiError
from app.models import Chart, ChartDomain, ChartRow, TechnicalSpec
from app.services.catalog.sites import get_site
from app.services.charts import queries
from schemas.vocabulary import SPECIFIC

# Uruguay, Colombia, Peru, Ecuador and Chile have sellers' charts only (service-spec.md).
SPECIFIC_ONLY_SITES = frozenset({"MLU", "MCO", "MPE", "MEC", "MLC"})


def active_domain_ids(site_id):
    """The site-prefixed ids of the domains active for size charts in a site."""
    query = (ChartDomain.select(ChartDomain.domain).where(ChartDomain.site == site_id)
             .order_by(ChartDomain.domain))
    return [row.domain_id for row in query]


def active_domains(site_id):
    """Endpoint 22."""
    domains = active_domain_ids(site_id)
    if not domains:
        # The spec's message, exactly; which site is in the path.
        raise ApiError("config_not_found", "Config not found")
    return {"domains": [{"domain_id": domain_id} for domain_id in domains]}


def _not_active(site_id, full_id):
    return ApiError("domain_not_active", f"Domain {full_id} is not active to be used in charts",
                    [{"code": "domain_not_active", "message": "Use a domain listed by "
                      f"GET /catalog/charts/{site_id}/configurations/active_domains", "field": "domain_id"}])


def require_active_domain(site_id, domain_id):
    """The site-prefixed id of an unprefixed domain active for charts in the site; 400 otherwise."""
    full_id = f"{site_id}-{domain_id}"
    active = ChartDomain.select().where((ChartDomain.site == site_id) & (ChartDomain.domain == full_id))
    if not active.exists():
        raise _not_active(site_id, full_id)
    return full_id


def active_chart_domain(site_id, domain_id):
    """get_site() and require_active_domain() in one query, with the domain's SPECIFICATIONS sheet
    input (None without one) and the catalog version they were read at: (site-prefixed domain id,
    sheet input, catalog version). An active domain exists (foreign key), so there is no separate
    domain lookup."""
    full_id = f"{site_id}-{domain_id}"
    row = queries.site_domain_sheet(site_id, full_id)
    if row is None:
        raise ApiError("site_not_found", f"Site {site_id} does not exist")
    if row[1] is None:
        raise _not_active(site_id, full_id)
    return full_id, None if row[2] is None else TechnicalSpec.input.python_value(row[2]), row[3]


def domains_with_charts(site_id, chart_type):
    """Endpoint 26: the active chart domains (without prefix) that have charts of the type."""
    get_site(site_id)
    if site_id in SPECIFIC_ONLY_SITES and chart_type != SPECIFIC:
        return {"domains": []}
    active = {domain_id.split("-", 1)[1] for domain_id in active_domain_ids(site_id)}
    query = (Chart.select(Chart.domain_id).distinct()
             .where((Chart.site == site_id) & (Chart.type == chart_type)))
    names = sorted(row.domain_id for row in query if row.domain_id in active)
    return {"domains": [{"domain_id": name} for name in names]}


def row_size(attributes, main_attribute_id):
    for attribute in attributes or ():
        if attribute.get("id") == main_attribute_id:
            for value in attribute.get("values") or ():
                if value.get("name"):
                    return value["name"]
            return attribute.get("value_name")
    return None


@dataclass(frozen=True)
class SizedRow:
    """A chart row as answered (ChartRowSchema): its attributes plus `SIZE`, the value of the
    chart's main attribute."""

    id: str
    attributes: list


def sized_row(row, main_attribute_id):
    attributes = list(row.attributes or ())
    size = row_size(attributes, main_attribute_id)
    if size is not None and not any(a.get("id") == "SIZE" for a in attributes):
        attributes.append({"id": "SIZE", "name": "Talle", "values": [{"id": None, "name": size, "struct": None}]})
    return SizedRow(row.id, attributes)


def with_rows(chart, rows):
    """The chart row as ChartSchema dumps a whole chart: with `sized_rows` (a search result has
    none, and answers `rows: []`)."""
    chart.sized_rows = [sized_row(row, chart.main_attribute_id) for row in rows]
    return chart


def chart_rows(chart):
    return list(ChartRow.select().where(ChartRow.chart == chart).order_by(ChartRow.position))


def get_chart(chart_id):
    chart = Chart.get_or_none(Chart.id == chart_id)
    if chart is None:
        raise ApiError("chart_not_found", f"Chart {chart_id} does not exist")
    return chart


def check_reader(chart, caller_id):
    if chart.type == SPECIFIC and chart.seller_id != caller_id:
        raise ApiError("forbidden", f"Chart {chart.id} is a customized chart of another seller")


def check_manager(chart, caller_id):
    if chart.type != SPECIFIC:
        raise ApiError("chart_read_only", f"Chart {chart.id} is a {chart.type} chart and cannot be changed; "
                       "only your SPECIFIC charts can")
    if chart.seller_id != caller_id:
        raise ApiError("forbidden", f"Chart {chart.id} belongs to another seller")


def read_chart(chart_id, caller_id):
    """GET /catalog/charts/{id}: the whole chart, rows included."""
    chart = get_chart(chart_id)
    check_reader(chart, caller_id)
    return with_rows(chart, chart_rows(chart))
