"""A seller's chart checked cell by cell against its chart sheet (endpoint 24's GRIDS sheet).

Every problem is collected, so the seller fixes the whole chart in one round: the answer is
400 `chart_validation_error` with `errors: [{code, message, cell}]`.
"""
import re

from app.errors import ApiError
from app.services.charts.sheets import TEMPLATE_TAG, grid_component, sheet_attributes

MAX_ROWS = 75
MEASURE_TAGS = ("BODY_MEASURE", "CLOTHING_MEASURE")
CHART_LEVEL_TAGS = (TEMPLATE_TAG, "grid_filter")
LINK_TYPES = ("grid_id", "grid_row_id")
DEFAULT_MAX_LENGTH = 255
_NUMBER_UNIT = re.compile(r"^\s*(-?\d+(?:[.,]\d+)?)\s*([^\d\s].*?)?\s*$")


class Problems:
    def __init__(self):
        self.errors = []

    def add(self, code, message, cell):
        self.errors.append({"code": code, "message": message, "cell": cell})

    def raise_if_any(self):
        if self.errors:
            raise validation_error(self.errors)


def validation_error(errors):
    summary = "; ".join(f"{e['cell']}: {e['message']}" for e in errors[:3])
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return ApiError("chart_validation_error", f"The chart does not fit its sheet. {summary}{more}",
                    [{"code": e["code"], "message": e["message"], "field": e["cell"]} for e in errors],
                    extra={"errors": errors})


def raw_values(attribute):
    """The values a request attribute carries, as [{id, name, struct}]."""
    values = [dict(v) for v in attribute.get("values") or ()]
    if not values and (attribute.get("value_name") is not None or attribute.get("value_id") is not None):
        values = [{"id": attribute.get("value_id"), "name": attribute.get("value_name"),
                   "struct": attribute.get("value_struct")}]
    return [v for v in values if v.get("id") not in (None, "") or (v.get("name") or "").strip()]


class ChartSheet:
    """The attributes of a chart sheet (and of the domain sheet) with what a chart may hold."""

    def __init__(self, grid_input, spec_input=None):
        self.grid_attributes = sheet_attributes(grid_input)
        self.attributes = {**sheet_attributes(spec_input), **self.grid_attributes}
        grid = grid_component(grid_input) or {}
        sheet_max = (grid.get("ui_config") or {}).get("max_allowed") or MAX_ROWS
        self.max_rows = min(int(sheet_max), MAX_ROWS)
        self.candidates = [a for a, d in self.attributes.items() if "main_attribute_candidate" in tags(d)]

    def is_chart_level(self, attribute_id):
        definition = self.attributes.get(attribute_id) or {}
        return any(tag in tags(definition) for tag in CHART_LEVEL_TAGS)

    def row_attributes(self):
        return {a: d for a, d in self.grid_attributes.items()
                if not self.is_chart_level(a) and d.get("value_type") not in LINK_TYPES}

    def check_value(self, attribute_id, value, cell, problems):
        """The value normalised to {id, name, struct}, or None after recording why it is wrong."""
        definition = self.attributes[attribute_id]
        name = (value.get("name") or "").strip()
        value_id = value.get("id")
        allowed = definition.get("values") or []
        kind = definition.get("value_type")
        if kind == "list" and allowed:
            for option in allowed:
                if (value_id not in (None, "") and str(option.get("id")) == str(value_id)) or \
                        (name and (option.get("name") or "").strip().lower() == name.lower()):
                    return {"id": str(option.get("id")), "name": option.get("name"), "struct": None}
            names = ", ".join(str(o.get("name")) for o in allowed[:20])
            problems.add("invalid_value", f"{name or value_id!s} is not an allowed value of {attribute_id}; "
                         f"use one of: {names}", cell)
            return None
        if not name and allowed and value_id not in (None, ""):
            name = next((o.get("name") for o in allowed if str(o.get("id")) == str(value_id)), "") or ""
        if not name:
            problems.add("missing_value", f"{attribute_id} needs a value name", cell)
            return None
        if len(name) > int(definition.get("value_max_length") or DEFAULT_MAX_LENGTH):
            problems.add("value_too_long", f"{attribute_id} takes at most "
                         f"{definition.get('value_max_length') or DEFAULT_MAX_LENGTH} characters", cell)
            return None
        if kind == "number_unit":
            return self._number_unit(definition, name, cell, problems)
        if kind == "number":
            try:
                return {"id": None, "name": name, "struct": {"number": float(name.replace(",", "."))}}
            except ValueError:
                problems.add("invalid_number", f"{attribute_id} must be a number, not {name!r}", cell)
                return None
        return {"id": None if value_id in (None, "") else str(value_id), "name": name, "struct": None}

    def _number_unit(self, definition, text, cell, problems):
        units = {str(u.get("id")).lower(): u for u in definition.get("units") or ()}
        units.update({str(u.get("name")).lower(): u for u in definition.get("units") or ()})
        unit_names = ", ".join(str(u.get("id")) for u in definition.get("units") or ()) or "none defined"
        match = _NUMBER_UNIT.match(text)
        if not match or not match.group(2):
            problems.add("invalid_number_unit", f"{definition['id']} needs a number and a unit, such as "
                         f"'25.5 {definition.get('default_unit_id') or 'cm'}' (units: {unit_names})", cell)
            return None
        unit = units.get(match.group(2).strip().lower())
        if unit is None:
            problems.add("invalid_unit", f"{match.group(2)!r} is not a unit of {definition['id']}; "
                         f"use one of: {unit_names}", cell)
            return None
        number = float(match.group(1).replace(",", "."))
        shown = f"{match.group(1).replace(',', '.')} {unit.get('id')}"
        return {"id": None, "name": shown, "struct": {"number": number, "unit": unit.get("id")}}


def tags(definition):
    return definition.get("tags") or ()


def check_chart_attributes(sheet, attributes, problems):
    """Chart-level attributes (GENDER, BRAND, …) normalised, each value checked."""
    result = []
    for attribute in attributes or ():
        attribute_id = attribute.get("id")
        cell = f"attributes.{attribute_id}"
        if attribute_id not in sheet.attributes:
            problems.add("unknown_attribute", f"{attribute_id} is not an attribute of this chart sheet", cell)
            continue
        if not sheet.is_chart_level(attribute_id):
            problems.add("not_a_chart_attribute", f"{attribute_id} belongs in the rows, not at chart level", cell)
            continue
        values = [sheet.check_value(attribute_id, v, cell, problems) for v in raw_values(attribute)]
        if not values:
            problems.add("missing_value", f"{attribute_id} needs a value", cell)
        elif all(values):
            result.append({"id": attribute_id, "name": sheet.attributes[attribute_id].get("name"),
                           "values": values})
    return result


def check_main_attributes(sheet, main_id, secondary_id, problems):
    for attribute_id, cell in ((main_id, "main_attribute"), (secondary_id, "secondary_attribute")):
        if attribute_id is None:
            continue
        definition = sheet.attributes.get(attribute_id)
        if definition is None or attribute_id not in sheet.row_attributes():
            problems.add("unknown_attribute", f"{attribute_id} is not a row attribute of this chart sheet", cell)
        elif cell == "main_attribute" and sheet.candidates and attribute_id not in sheet.candidates:
            problems.add("invalid_main_attribute", f"{attribute_id} cannot identify the size; use one of: "
                         f"{', '.join(sheet.candidates)}", cell)


def check_row(sheet, row_attributes, index, main_id, problems):
    """One row normalised: [{id, name, values}] in the order sent, or None when it has problems."""
    before = len(problems.errors)
    allowed = sheet.row_attributes()
    normalised, seen = [], set()
    for attribute in row_attributes:
        attribute_id = attribute.get("id")
        cell = f"rows[{index}].{attribute_id}"
        if attribute_id in seen:
            problems.add("duplicate_attribute", f"{attribute_id} appears twice in the row", cell)
            continue
        seen.add(attribute_id)
        if attribute_id not in sheet.attributes:
            problems.add("unknown_attribute", f"{attribute_id} is not an attribute of this chart sheet", cell)
            continue
        if attribute_id not in allowed:
            problems.add("attribute_not_allowed_in_row", f"{attribute_id} is set once for the whole chart, "
                         "not in rows", cell)
            continue
        values = [sheet.check_value(attribute_id, v, cell, problems) for v in raw_values(attribute)]
        if not values:
            problems.add("missing_value", f"{attribute_id} needs a value", cell)
        elif all(values):
            normalised.append({"id": attribute_id, "name": allowed[attribute_id].get("name"), "values": values})
    if main_id not in seen:
        problems.add("missing_main_attribute", f"Every row needs the main attribute {main_id}",
                     f"rows[{index}].{main_id}")
    for attribute_id, definition in allowed.items():
        if "required" in tags(definition) and attribute_id not in seen and attribute_id != main_id:
            problems.add("missing_required_value", f"{attribute_id} is required in every row",
                         f"rows[{index}].{attribute_id}")
    return normalised if len(problems.errors) == before else None


def main_size(row_attributes, main_id):
    for attribute in row_attributes or ():
        if attribute.get("id") == main_id:
            values = raw_values(attribute)
            if values:
                return (values[0].get("name") or str(values[0].get("id") or "")).strip()
    return None


def check_measures(sheet, rows, measure_type, problems):
    """A chart holds body measures or garment measures, not both; answers the chart's measure type."""
    used = {}
    for index, row in enumerate(rows):
        for attribute in row or ():
            for tag in MEASURE_TAGS:
                if tag in tags(sheet.attributes.get(attribute["id"]) or {}):
                    used.setdefault(tag, f"rows[{index}].{attribute['id']}")
    if measure_type is not None:
        for tag, cell in used.items():
            if tag != measure_type:
                problems.add("measure_type_mismatch", f"The chart's measure_type is {measure_type}; "
                             f"this attribute is a {tag}", cell)
        return measure_type
    if len(used) > 1:
        problems.add("mixed_measure_types", "Use body measures (BODY_MEASURE) or garment measures "
                     "(CLOTHING_MEASURE), not both", used["CLOTHING_MEASURE"])
        return None
    return next(iter(used), None)
