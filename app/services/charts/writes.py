"""A seller's own charts, beyond the spec (decisions.md): create, rename, add and complete rows, delete."""
import secrets
from dataclasses import dataclass

from app.db import lock_rows, write_transaction
from app.errors import ApiError
from app.models import Chart, ChartFilterValue, ChartRow, Item
from app.services.charts import validation as cv
from app.services.charts.reads import (
    chart_rows,
    check_manager,
    get_chart,
    get_site,
    require_active_domain,
    sized_row,
    with_rows,
)
from app.services.charts.sheets import get_domain, select_chart_sheet
from schemas.vocabulary import SPECIFIC


@dataclass(frozen=True)
class ChartDeleted:
    id: str
    deleted: bool = True


def _sheet_for(domain, chart_attributes, problems):
    """The chart sheet picked by the chart's grid_template_required values."""
    sheet, missing, spec = select_chart_sheet(domain, chart_attributes)
    for attribute_id in missing:
        problems.add("missing_required_attribute", f"{attribute_id} is required at chart level "
                     "(it is tagged grid_template_required)", f"attributes.{attribute_id}")
    if sheet is None and not missing:
        problems.add("chart_sheet_not_found", f"Domain {domain.id} has no size chart sheet for these "
                     "attribute values", "attributes")
    problems.raise_if_any()
    return cv.ChartSheet(sheet.input, spec.input if spec is not None else None)


def _check_names(names, site_id, problems):
    if not (names.get(site_id) or "").strip():
        problems.add("missing_name", f"names needs the chart's name for its site {site_id}", f"names.{site_id}")


def _check_rows(sheet, main_id, rows, problems, existing=()):
    """Rows normalised; duplicate main sizes are checked against the chart's other rows too."""
    taken = {(cv.main_size(r, main_id) or "").lower(): None for r in existing}
    normalised = []
    for index, row in enumerate(rows):
        clean = cv.check_row(sheet, row, index, main_id, problems)
        size = cv.main_size(row, main_id)
        if size and size.lower() in taken:
            problems.add("duplicate_main_size", f"Size {size} is already a row of this chart",
                         f"rows[{index}].{main_id}")
        elif size:
            taken[size.lower()] = index
        normalised.append(clean)
    return normalised


def _filter_values(chart, attributes):
    return [{"chart": chart.id, "attribute_id": a["id"], "value_id": v.get("id"),
             "value_key": (v.get("name") or "").lower() or None}
            for a in attributes for v in a["values"]]


def _new_chart_id():
    while True:  # opaque numeric ids, like the marketplace's
        chart_id = str(secrets.randbelow(9 * 10**9) + 10**9)
        if not Chart.select().where(Chart.id == chart_id).exists():
            return chart_id


def create_chart(caller_id, body):
    """POST /catalog/charts: a SPECIFIC chart of the caller, validated against its chart sheet."""
    site_id, problems = body["site_id"], cv.Problems()
    get_site(site_id)
    domain = get_domain(require_active_domain(site_id, body["domain_id"]))
    sheet = _sheet_for(domain, body.get("attributes"), problems)
    main_id = body["main_attribute"]["attributes"][0]["id"]
    secondary = body.get("secondary_attribute")
    secondary_id = secondary["attributes"][0]["id"] if secondary else None
    _check_names(body["names"], site_id, problems)
    cv.check_main_attributes(sheet, main_id, secondary_id, problems)
    attributes = cv.check_chart_attributes(sheet, body.get("attributes"), problems)
    rows = [r["attributes"] for r in body["rows"]]
    if not rows:
        problems.add("rows_required", "A chart needs at least one row", "rows")
    if len(rows) > sheet.max_rows:
        problems.add("too_many_rows", f"A chart has at most {sheet.max_rows} rows; {len(rows)} were sent", "rows")
    problems.raise_if_any()
    rows = _check_rows(sheet, main_id, rows, problems)
    measure_type = cv.check_measures(sheet, rows, body.get("measure_type"), problems)
    problems.raise_if_any()
    with write_transaction():
        chart = Chart.create(
            id=_new_chart_id(), site=site_id, domain_id=body["domain_id"], type=SPECIFIC, seller_id=caller_id,
            main_attribute_id=main_id, secondary_attribute_id=secondary_id, measure_type=measure_type,
            names=body["names"], attributes=attributes)
        ChartRow.insert_many([{"id": f"{chart.id}:{n}", "chart": chart.id, "position": n, "attributes": row}
                              for n, row in enumerate(rows, start=1)]).execute()
        if attributes:
            ChartFilterValue.insert_many(_filter_values(chart, attributes)).execute()
        return with_rows(chart, chart_rows(chart))


def _locked_chart(chart_id, caller_id):
    chart = get_chart(chart_id)
    check_manager(chart, caller_id)
    return lock_rows(Chart.select().where(Chart.id == chart.id))[0]


def rename_chart(chart_id, caller_id, names):
    """PUT /catalog/charts/{id}: new names, merged into the chart's names."""
    with write_transaction():
        chart = _locked_chart(chart_id, caller_id)
        merged = {**(chart.names or {}), **names}
        problems = cv.Problems()
        _check_names(merged, chart.site_id, problems)
        problems.raise_if_any()
        Chart.update(names=merged).where(Chart.id == chart.id).execute()
        chart.names = merged
        return with_rows(chart, chart_rows(chart))


def _chart_sheet(chart):
    return _sheet_for(get_domain(f"{chart.site_id}-{chart.domain_id}"), chart.attributes, cv.Problems())


def _check_row_measures(chart, sheet, others, row, problems):
    """The row's measures agree with the chart's; a chart without measures takes the row's."""
    current = chart.measure_type or cv.check_measures(sheet, others, None, cv.Problems())
    measure_type = cv.check_measures(sheet, [row], current, problems)
    problems.raise_if_any()
    if measure_type != chart.measure_type:
        Chart.update(measure_type=measure_type).where(Chart.id == chart.id).execute()


def add_row(chart_id, caller_id, attributes):
    """POST /catalog/charts/{id}/rows: one more row, at the end."""
    with write_transaction():
        chart = _locked_chart(chart_id, caller_id)
        sheet, rows, problems = _chart_sheet(chart), chart_rows(chart), cv.Problems()
        if len(rows) >= sheet.max_rows:
            problems.add("too_many_rows", f"The chart already has {len(rows)} rows, the most allowed", "rows")
            problems.raise_if_any()
        (clean,) = _check_rows(sheet, chart.main_attribute_id, [attributes], problems,
                               existing=[r.attributes for r in rows])
        _check_row_measures(chart, sheet, [r.attributes for r in rows], clean, problems)
        position = max((r.position for r in rows), default=0) + 1
        row = ChartRow.create(id=f"{chart.id}:{position}", chart=chart.id, position=position, attributes=clean)
        return sized_row(row, chart.main_attribute_id)


def update_row(chart_id, row_id, caller_id, attributes):
    """PUT /catalog/charts/{id}/rows/{row_id}: adds or replaces values; the main size never changes."""
    with write_transaction():
        chart = _locked_chart(chart_id, caller_id)
        rows = chart_rows(chart)
        row = next((r for r in rows if r.id == row_id), None)
        if row is None:
            raise ApiError("chart_row_not_found", f"Chart {chart.id} has no row {row_id}")
        sheet, problems, main_id = _chart_sheet(chart), cv.Problems(), chart.main_attribute_id
        current = cv.main_size(row.attributes, main_id)
        sent = cv.main_size(attributes, main_id)
        if sent is not None and sent.lower() != (current or "").lower():
            problems.add("main_size_immutable", f"The main size of a row ({main_id} = {current}) cannot change; "
                         "add a new row instead", f"rows[0].{main_id}")
            problems.raise_if_any()
        sent_ids = {a.get("id") for a in attributes}
        merged = [a for a in row.attributes if a.get("id") not in sent_ids] + \
                 [a for a in attributes if a.get("id") != main_id]
        (clean,) = _check_rows(sheet, main_id, [merged], problems)
        _check_row_measures(chart, sheet, [r.attributes for r in rows if r.id != row.id], clean, problems)
        ChartRow.update(attributes=clean).where(ChartRow.id == row.id).execute()
        row.attributes = clean
        return sized_row(row, main_id)


def items_using(chart):
    """Ids of the listings whose SIZE_GRID_ID names this chart."""
    candidates = (Item.select(Item.id, Item.attributes)
                  .where((Item.site == chart.site_id) & Item.attributes.cast("text").contains(chart.id)))
    return [item.id for item in candidates
            if any(a.get("id") == "SIZE_GRID_ID" and chart.id in {str(a.get("value_id")), a.get("value_name")}
                   for a in item.attributes or ())]


def delete_chart(chart_id, caller_id):
    """DELETE /catalog/charts/{id}: only a chart that no listing uses."""
    with write_transaction():
        chart = _locked_chart(chart_id, caller_id)
        users = items_using(chart)
        if users:
            raise ApiError("chart_in_use", f"Chart {chart.id} is used by {len(users)} listing(s); "
                           "link them to another chart first",
                           [{"code": "chart_in_use", "message": f"Item {i} uses this chart", "field": "id"}
                            for i in users[:50]])
        Chart.delete().where(Chart.id == chart.id).execute()
        return ChartDeleted(chart.id)
