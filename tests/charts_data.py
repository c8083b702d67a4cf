"""Size-chart test data, loaded through the bundle import on top of `base_bundle()`.

MLA has three chart domains (SNEAKERS; T_SHIRTS and PANTS, the tops and bottoms domains with
FILTRABLE_SIZE) and one domain with charts but not active (BOOTS). MLU only has SPECIFIC charts.
MLB has no chart domain at all.
"""
from tests.bundles import OTHER_SELLER, SELLER, base_bundle, item

MLU_SELLER = 3001
MLU_TOKEN = "TEST-3001-mlu"
MEN, WOMEN, KIDS = "339666", "339665", "110461"
GENDER_VALUES = [{"id": MEN, "name": "Hombre"}, {"id": WOMEN, "name": "Mujer"}, {"id": KIDS, "name": "Niños"}]
LENGTH_UNITS = [{"id": "cm", "name": "cm"}, {"id": "in", "name": "pulgadas"}]
TOP_SIZES = [{"id": "3189155", "name": "S"}, {"id": "3189156", "name": "M"},
             {"id": "3189157", "name": "L"}, {"id": "3189158", "name": "XL"}]


def attribute(attribute_id, name, value_type="string", tags=(), **extra):
    return {"id": attribute_id, "name": name, "value_type": value_type, "tags": list(tags),
            "value_max_length": 255, "hierarchy": "ITEM", "relevance": 1, **extra}


def measure(attribute_id, name, tag):
    return attribute(attribute_id, name, "number_unit", [tag], default_unit_id="cm", units=LENGTH_UNITS)


def gender():
    return attribute("GENDER", "Género", "list", ["grid_template_required", "grid_filter", "required"],
                     values=GENDER_VALUES)


def brand(template_required=True):
    tags = ["grid_template_required", "grid_filter"] if template_required else ["grid_filter"]
    return attribute("BRAND", "Marca", "string", tags)


def specifications(domain_id, template_brand=True):
    components = [
        {"component": "COMBO", "label": "Género", "ui_config": {"hint": "Elegí el género"}, "attributes": [gender()]},
        {"component": "TEXT_INPUT", "label": "Marca", "ui_config": {"allow_custom_value": True},
         "attributes": [brand(template_brand)]},
        {"component": "TEXT_INPUT", "label": "Color", "attributes": [attribute("COLOR", "Color")]},
        {"component": "TEXT_OUTPUT", "label": "Guía de talles", "attributes": [
            attribute("SIZE_GRID_ID", "Guía de talles", "grid_id", ["hidden"]),
            attribute("SIZE_GRID_ROW_ID", "Talle de la guía", "grid_row_id", ["variation_attribute", "hidden"])]}]
    group = {"id": "MAIN", "label": "Características", "relevance": 1, "section": "SPECIFICATIONS",
             "ui_config": {}, "components": components}
    return {"domain_id": domain_id, "section": "SPECIFICATIONS", "input": {"groups": [group]}, "output": {}}


def grid(domain_id, when, row_attributes, max_allowed=75):
    row = {"component": "GRID_ROW_INPUT", "label": "Fila", "attributes": row_attributes}
    grid_component = {"component": "GRID", "label": "Guía de talles", "ui_config": {"max_allowed": max_allowed},
                      "attributes": [], "components": [row]}
    group = {"id": "GRID", "label": "Guía de talles", "relevance": 1, "section": "GRIDS", "ui_config": {},
             "components": [grid_component]}
    return {"domain_id": domain_id, "section": "GRIDS", "when": when, "input": {"groups": [group]}, "output": {}}


def sneaker_rows():
    return [attribute("EU_SIZE", "Talle EU", tags=["main_attribute_candidate", "required"]),
            attribute("AR_SIZE", "Talle AR", tags=["main_attribute_candidate"]),
            measure("FOOT_LENGTH", "Largo del pie", "BODY_MEASURE")]


def clothing_rows(filtrable_sizes):
    filtrable = attribute("FILTRABLE_SIZE", "Talle filtrable", "list",
                          ["required", "variation_attribute", "read_only", "hidden", "vip_hidden"],
                          values=filtrable_sizes)
    return [attribute("MANUFACTURER_SIZE", "Talle del fabricante", tags=["main_attribute_candidate", "required"]),
            filtrable,
            measure("CHEST_CIRCUMFERENCE_FROM", "Contorno de pecho desde", "BODY_MEASURE"),
            measure("WAIST_CIRCUMFERENCE_FROM", "Contorno de cintura desde", "BODY_MEASURE"),
            measure("GARMENT_LENGTH_FROM", "Largo de la prenda desde", "CLOTHING_MEASURE")]


def chart(chart_id, domain_id, chart_type, gender_value, brand_name=None, seller=None, site="MLA",
          main="EU_SIZE", sizes=("40", "41", "42")):
    gender_name = next(v["name"] for v in GENDER_VALUES if v["id"] == gender_value)
    attributes = [{"id": "GENDER", "values": [{"id": gender_value, "name": gender_name}]}]
    if brand_name:
        attributes.append({"id": "BRAND", "values": [{"name": brand_name}]})
    rows = [{"attributes": [{"id": main, "values": [{"name": size}]},
                            {"id": "FOOT_LENGTH", "values": [{"name": f"{22 + i}.5 cm"}]}]}
            for i, size in enumerate(sizes)]
    return {"id": chart_id, "names": {site: f"Guia {chart_id} {gender_name}"}, "site_id": site,
            "domain_id": domain_id, "type": chart_type, "seller_id": seller, "main_attribute_id": main,
            "measure_type": "BODY_MEASURE", "attributes": attributes, "rows": rows}


def charts_bundle():
    bundle = base_bundle()
    bundle["sites"].append({"id": "MLU", "name": "Uruguay", "default_currency_id": "UYU", "language": "es"})
    bundle["currencies"].append({"id": "UYU", "description": "Peso uruguayo", "symbol": "$", "decimal_places": 2})
    bundle["users"].append({"id": MLU_SELLER, "nickname": "MODA_UY", "site_id": "MLU",
                            "access_tokens": [MLU_TOKEN]})
    bundle["domains"] += [
        {"id": "MLA-SNEAKERS", "site_id": "MLA", "name": "Zapatillas"},
        {"id": "MLA-T_SHIRTS", "site_id": "MLA", "name": "Remeras"},
        {"id": "MLA-PANTS", "site_id": "MLA", "name": "Pantalones"},
        {"id": "MLA-BOOTS", "site_id": "MLA", "name": "Botas"},
        {"id": "MLU-SNEAKERS", "site_id": "MLU", "name": "Championes"}]
    bundle["categories"] += [
        {"id": "MLA109027", "site_id": "MLA", "name": "Zapatillas", "domain_id": "MLA-SNEAKERS"},
        {"id": "MLA417372", "site_id": "MLA", "name": "Remeras", "domain_id": "MLA-T_SHIRTS"},
        {"id": "MLA158382", "site_id": "MLA", "name": "Pantalones", "domain_id": "MLA-PANTS"},
        {"id": "MLA414251", "site_id": "MLA", "name": "Botas", "domain_id": "MLA-BOOTS"},
        {"id": "MLU1234", "site_id": "MLU", "name": "Championes", "domain_id": "MLU-SNEAKERS"}]
    bundle["chart_domains"] = [{"site_id": "MLA", "domain_id": d} for d in
                               ("MLA-SNEAKERS", "MLA-T_SHIRTS", "MLA-PANTS")] + \
                              [{"site_id": "MLU", "domain_id": "MLU-SNEAKERS"}]
    bundle["technical_specs"] = [
        specifications("MLA-SNEAKERS"),
        grid("MLA-SNEAKERS", {"GENDER": MEN}, sneaker_rows()),
        grid("MLA-SNEAKERS", {"GENDER": WOMEN}, sneaker_rows()),
        specifications("MLA-T_SHIRTS", template_brand=False),
        grid("MLA-T_SHIRTS", {"GENDER": MEN}, clothing_rows(TOP_SIZES)),
        grid("MLA-T_SHIRTS", {"GENDER": WOMEN}, clothing_rows(TOP_SIZES)),
        specifications("MLA-PANTS", template_brand=False),
        grid("MLA-PANTS", {"GENDER": MEN}, clothing_rows([{"id": "9001", "name": "40"},
                                                          {"id": "9002", "name": "42"}])),
        specifications("MLU-SNEAKERS"),
        grid("MLU-SNEAKERS", {"GENDER": MEN}, sneaker_rows())]
    bundle["charts"] = [
        chart("100", "SNEAKERS", "BRAND", MEN, "adidas"),
        chart("101", "SNEAKERS", "BRAND", MEN, "Nike"),
        chart("102", "SNEAKERS", "BRAND", WOMEN, "adidas"),
        chart("200", "SNEAKERS", "STANDARD", MEN),
        chart("201", "SNEAKERS", "STANDARD", MEN, main="AR_SIZE"),
        chart("202", "SNEAKERS", "STANDARD", WOMEN),
        chart("300", "SNEAKERS", "SPECIFIC", MEN, seller=SELLER),
        chart("301", "SNEAKERS", "SPECIFIC", MEN, seller=OTHER_SELLER),
        chart("302", "SNEAKERS", "SPECIFIC", WOMEN, seller=SELLER),
        chart("303", "SNEAKERS", "SPECIFIC", MEN, "Zapas Sur", seller=SELLER),
        chart("210", "T_SHIRTS", "STANDARD", MEN, main="MANUFACTURER_SIZE", sizes=("S", "M")),
        chart("110", "BOOTS", "BRAND", MEN, "adidas"),
        chart("400", "SNEAKERS", "SPECIFIC", MEN, seller=MLU_SELLER, site="MLU"),
        chart("401", "SNEAKERS", "BRAND", MEN, "adidas", site="MLU")]
    bundle["items"] += [
        item("MLA500", "MLA109027", "MLA-SNEAKERS", title="Zapatillas urbanas hombre",
             attributes=[{"id": "SIZE_GRID_ID", "name": "Guía de talles", "value_id": None, "value_name": "300",
                          "values": [{"id": None, "name": "300", "struct": None}], "value_type": "grid_id"}])]
    return bundle


def t_shirt_chart(**changes):
    """A valid creation request for a men's T-shirt chart with body measures."""
    body = {
        "names": {"MLA": "Remeras Sur hombre"}, "domain_id": "T_SHIRTS", "site_id": "MLA",
        "main_attribute": {"attributes": [{"site_id": "MLA", "id": "MANUFACTURER_SIZE"}]},
        "attributes": [{"id": "GENDER", "values": [{"id": MEN, "name": "Hombre"}]},
                       {"id": "BRAND", "values": [{"name": "Sur"}]}],
        "rows": [t_shirt_row("S", "S", "88 cm"), t_shirt_row("M", "M", "94 cm")]}
    body.update(changes)
    return body


def t_shirt_row(size, filtrable, chest=None, **extra_values):
    attributes = [{"id": "MANUFACTURER_SIZE", "values": [{"name": size}]},
                  {"id": "FILTRABLE_SIZE", "values": [{"name": filtrable}]}]
    if chest is not None:
        attributes.append({"id": "CHEST_CIRCUMFERENCE_FROM", "values": [{"name": chest}]})
    for attribute_id, value in extra_values.items():
        attributes.append({"id": attribute_id, "values": [{"name": value}]})
    return {"attributes": attributes}
