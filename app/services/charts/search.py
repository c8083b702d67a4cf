"""Chart search (endpoint 25): BRAND, STANDARD and the caller's SPECIFIC charts of an active domain.

The search runs two queries (site and domain lookup, then the page with its total), both from
app.services.charts.queries. What the first reads (the domain is active, the attributes its sheet
requires) changes only at import, so each worker keeps it, stamped with the catalog version it was
read at; the page query reads the current version too, and a search whose page shows another
version (or no row to show it) runs again from the database. So a warm search is one query.
"""
from app.db import db
from app.errors import ApiError
from app.services.charts import queries
from app.services.charts.reads import SPECIFIC_ONLY_SITES, active_chart_domain
from app.services.charts.sheets import (
    TEMPLATE_TAG,
    missing_attributes_error,
    required_attribute_ids,
    sent_values,
    sheet_attributes,
)
from app.services.paging import Page
from schemas.vocabulary import CHART_TYPES, SPECIFIC


def check_caller(caller_id, seller_id, header_caller_id):
    if seller_id != caller_id:
        raise ApiError("forbidden", f"seller_id {seller_id} must be the caller's own user id ({caller_id})")
    if header_caller_id is not None and header_caller_id != caller_id:
        raise ApiError("forbidden", f"x-caller-id {header_caller_id} must be the caller's own user id ({caller_id})")


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
    """The search's shape (what its SQL depends on) and its values by param name: the query is
    built from the shape alone (queries.search_page), so requests of one shape share its SQL."""
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


# (database, site id, domain id) -> (catalog version, required attribute ids) of an active chart
# domain; errors are never kept. Bounded: past this many keys, searches read the sheet each time.
MAX_SHEETS = 1024
_sheets = {}


def search_charts(caller_id, body, header_caller_id, offset, limit):
    """Endpoint 25: a Page of Chart rows (without their rows)."""
    site_id, domain_id = body["site_id"], body["domain_id"]
    check_caller(caller_id, body["seller_id"], header_caller_id)
    sent = sent_values(body.get("attributes"))
    key = (db.obj.database, site_id, domain_id)
    kept = _sheets.get(key)
    if kept is not None:
        version, required = kept
        charts = _page_if_searchable(caller_id, body, sent, required, offset, limit)
        if charts is not None and charts[1] and charts[1][0].catalog_version == version:
            return _page(*charts, offset, limit)
    full_id, spec_input, version = active_chart_domain(site_id, domain_id)
    required = _required(full_id, spec_input)
    if len(_sheets) < MAX_SHEETS or key in _sheets:
        _sheets[key] = (version, required)
    charts = _page_if_searchable(caller_id, body, sent, required, offset, limit)
    if charts is None:
        raise missing_attributes_error([attribute_id for attribute_id in required if attribute_id not in sent])
    return _page(*charts, offset, limit)


def _page_if_searchable(caller_id, body, sent, required, offset, limit):
    """None when an attribute the sheet requires is missing, else (shape and values, the page's
    Chart rows); no type to search (a SPECIFIC-only site) is an empty page without a query."""
    if any(attribute_id not in sent for attribute_id in required):
        return None
    site_id, domain_id = body["site_id"], body["domain_id"]
    types = _types(site_id, body.get("type"))
    if not types:
        return None, []
    shape_values = _search_values(caller_id, site_id, domain_id, types, body.get("main_attribute_id"), sent)
    return shape_values, queries.search_page(*shape_values, offset, limit)


def _page(shape_values, charts, offset, limit):
    if charts:
        total = charts[0].search_total
    elif offset and shape_values is not None:
        # A page past the end has no row to carry the total.
        total = queries.search_count(*shape_values)
    else:
        total = 0
    return Page(charts, total, offset, limit)
