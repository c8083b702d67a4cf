"""Technical specification sheets: the domain sheet (23) and the chart sheet (24)."""
from app.errors import ApiError, require
from app.models import Domain, TechnicalSpec

SPECIFICATIONS = "SPECIFICATIONS"
GRIDS = "GRIDS"
TEMPLATE_TAG = "grid_template_required"


def get_domain(domain_id):
    return require(Domain, domain_id, "domain_not_found", f"Domain {domain_id} does not exist; "
                   "use a site-prefixed domain id such as MLA-SNEAKERS")


def iter_components(components):
    for component in components or ():
        yield component
        yield from iter_components(component.get("components"))


def sheet_attributes(sheet_input):
    """Every attribute of a sheet, in order, each once (the first definition wins)."""
    seen = {}
    for group in (sheet_input or {}).get("groups") or ():
        for component in iter_components(group.get("components")):
            for attribute in component.get("attributes") or ():
                seen.setdefault(attribute.get("id"), attribute)
    return seen


def grid_component(sheet_input):
    """The GRID component of a chart sheet, whose ui_config carries max_allowed."""
    for group in (sheet_input or {}).get("groups") or ():
        for component in iter_components(group.get("components")):
            if component.get("component") == "GRID":
                return component
    return None


def specifications_sheet(domain):
    return TechnicalSpec.get_or_none((TechnicalSpec.domain == domain)
                                     & (TechnicalSpec.section == SPECIFICATIONS))


def domain_sheet(domain_id):
    """Endpoint 23: the stored SPECIFICATIONS sheet of the domain."""
    domain = get_domain(domain_id)
    sheet = specifications_sheet(domain)
    if sheet is None:
        raise ApiError("technical_specs_not_found",
                        f"Domain {domain.id} has no technical specification sheet")
    return {"input": sheet.input, "output": sheet.output}


def sent_values(attributes):
    """{attribute id: (value ids, lower-cased value names)} of request attributes."""
    sent = {}
    for attribute in attributes or ():
        ids, names = sent.setdefault(attribute.get("id"), (set(), set()))
        candidates = [{"id": attribute.get("value_id"), "name": attribute.get("value_name")}]
        candidates += list(attribute.get("values") or ())
        for value in candidates:
            if value.get("id") not in (None, ""):
                ids.add(str(value["id"]))
            if (value.get("name") or "").strip():
                names.add(value["name"].strip().lower())
    return {key: value for key, value in sent.items() if value[0] or value[1]}


def required_attribute_ids(domain, grid_sheets=None):
    """The grid_template_required attributes: from the domain sheet, else the chart sheets' keys."""
    spec = specifications_sheet(domain)
    if spec is not None:
        required = [a["id"] for a in sheet_attributes(spec.input).values()
                    if TEMPLATE_TAG in (a.get("tags") or ())]
        if required:
            return required, spec
    keys = []
    for sheet in grid_sheets if grid_sheets is not None else _grid_sheets(domain):
        keys += [key for key in sheet.when if key not in keys]
    return keys, spec


def _grid_sheets(domain):
    return list(TechnicalSpec.select().where((TechnicalSpec.domain == domain)
                                             & (TechnicalSpec.section == GRIDS))
                .order_by(TechnicalSpec.when_key))


def _value_names(attribute_id, *sheets):
    """{lower-cased value name: value id} of an attribute, from the given sheet inputs."""
    names = {}
    for sheet_input in sheets:
        attribute = sheet_attributes(sheet_input).get(attribute_id) or {}
        for value in attribute.get("values") or ():
            if value.get("name") and value.get("id") is not None:
                names.setdefault(value["name"].strip().lower(), str(value["id"]))
    return names


def _matches(sheet, sent, spec_input):
    for attribute_id, value_id in sheet.when.items():
        ids, names = sent.get(attribute_id, (set(), set()))
        if str(value_id) in ids:
            continue
        by_name = _value_names(attribute_id, sheet.input, spec_input)
        if not any(by_name.get(name) == str(value_id) for name in names):
            return False
    return True


def select_chart_sheet(domain, attributes):
    """(chart sheet or None, missing grid_template_required ids, domain sheet or None)."""
    sheets = _grid_sheets(domain)
    required, spec = required_attribute_ids(domain, sheets)
    sent = sent_values(attributes)
    missing = [attribute_id for attribute_id in required if attribute_id not in sent]
    if missing:
        return None, missing, spec
    spec_input = spec.input if spec is not None else {}
    matching = [sheet for sheet in sheets if _matches(sheet, sent, spec_input)]
    # The most specific sheet wins over a catch-all one (`when` {}).
    matching.sort(key=lambda sheet: -len(sheet.when))
    return (matching[0] if matching else None), [], spec


def missing_attributes_error(missing, where="attributes"):
    return ApiError(
        "missing_required_attributes",
        f"Send every attribute tagged grid_template_required; missing: {', '.join(missing)}",
        [{"code": "required", "message": f"Attribute {attribute_id} is required", "field": where}
         for attribute_id in missing])


def chart_sheet(domain_id, attributes):
    """Endpoint 24: the GRIDS sheet for the sent grid_template_required values."""
    domain = get_domain(domain_id)
    sheet, missing, _ = select_chart_sheet(domain, attributes)
    if missing:
        raise missing_attributes_error(missing)
    if sheet is None:
        raise ApiError("chart_tech_specs_not_found",
                       f"Domain {domain.id} has no size chart sheet for the attribute values sent; "
                       "check the values of the grid_template_required attributes")
    return {"input": sheet.input, "output": sheet.output}
