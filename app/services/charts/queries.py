"""The size-chart queries every search runs, prepared (app.prepared_sql.prepared): compiled by peewee once
per query shape, run with each request's values."""
from peewee import JOIN, SQL, Case, fn

from app.models import CatalogVersion, Chart, ChartDomain, ChartFilterValue, Site, TechnicalSpec
from app.prepared_rows import prepared_instances
from app.prepared_sql import execute_prepared, param
from app.services.charts.sheets import SPECIFICATIONS
from schemas.vocabulary import BRAND, SPECIFIC, STANDARD

TYPE_ORDER = Case(None, [(Chart.type == BRAND, 0), (Chart.type == STANDARD, 1)], 2)


def _catalog_version():
    """The catalog version (app.models.CatalogVersion), as a column of a statement that reads what
    the import writes: what a worker caches from that statement is stamped with it."""
    return (CatalogVersion.select(CatalogVersion.version).where(CatalogVersion.id == 1)).alias("catalog_version")


def site_domain_sheet(site_id, full_domain_id):
    """(site id, chart-domain id or None, SPECIFICATIONS sheet input as stored or None, catalog
    version) of a site and a site-prefixed domain, or None when the site does not exist."""
    return execute_prepared("chart_site_domain_version", lambda: (
        Site.select(Site.id, ChartDomain.id, TechnicalSpec.input, _catalog_version())
        .join(ChartDomain, JOIN.LEFT_OUTER, on=(
            (ChartDomain.site == Site.id) & (ChartDomain.domain == param("domain"))))
        .join_from(Site, TechnicalSpec, JOIN.LEFT_OUTER, on=(
            (TechnicalSpec.domain == ChartDomain.domain) & (TechnicalSpec.section == SPECIFICATIONS)))
        .where(Site.id == param("site"))), {"domain": full_domain_id, "site": site_id}).fetchone()


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
    """The charts matching a search of this shape: (number of shared types, whether the caller's
    SPECIFIC charts count, whether main_attribute_id filters, (ids, names) sent per attribute).
    Its values are params: type{n}, caller, site, domain, main, a{a}, a{a}id{n}, a{a}name{n}."""
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


def search_page(shape, values, offset, limit):
    """A page of the charts a search matches, in answer order; each carries `search_total`, the
    number of matches in all pages (a window count: one query instead of a count and a page), and
    `catalog_version`, which tells whether the sheet the search was checked against is current."""
    return prepared_instances(Chart, ("chart_search_page_version", shape), lambda: (
        _search_query(shape).select_extend(fn.COUNT(SQL("*")).over().alias("search_total"), _catalog_version())
        .order_by(TYPE_ORDER, Chart.id).limit(param("limit")).offset(param("offset"))),
        {**values, "offset": offset, "limit": limit})


def search_count(shape, values):
    """The number of charts a search matches (for a page past the end, which carries no total)."""
    return execute_prepared(("chart_search_count", shape),
                            lambda: _search_query(shape, fn.COUNT(Chart.id)), values).fetchone()[0]
