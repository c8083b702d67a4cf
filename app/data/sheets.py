"""Technical specification sheets of the chart domains (endpoints 23 and 24), in the field shape of
the spec's "Technical specification sheet" table: every level carries all of its fields."""
from app.data.fashion import (
    ADULT_SIZES,
    CHART_DOMAINS_BY_SITE,
    DEFAULT_SHOE_EQUIVALENCES,
    FASHION_DOMAINS,
    FOOTWEAR,
    GENDERS,
    KIDS_SIZES,
    SHOE_EQUIVALENCES,
    SHOE_SIZE,
    SIZE_ATTRIBUTE_NAMES,
    color_values,
    fashion_brands,
    filtrable_size_value,
    gender_value,
)
from app.data.sites import language, localized

WORDS = {
    "main": {"es": "Características principales", "pt": "Características principais"},
    "others": {"es": "Otras características", "pt": "Outras características"},
    "brand": {"es": "Marca", "pt": "Marca"},
    "model": {"es": "Modelo", "pt": "Modelo"},
    "gender": {"es": "Género", "pt": "Gênero"},
    "color": {"es": "Color", "pt": "Cor"},
    "size": {"es": "Talla", "MLA": "Talle", "MLU": "Talle", "pt": "Tamanho"},
    "chart": {"es": "Guía de tallas", "MLA": "Guía de talles", "MLU": "Guía de talles", "pt": "Tabela de medidas"},
    "chart_id": {"es": "ID de la guía de tallas", "MLA": "ID de la guía de talles", "MLU": "ID de la guía de talles",
                 "pt": "ID da tabela de medidas"},
    "row_id": {"es": "ID de la fila de la guía", "pt": "ID da linha da tabela"},
    "equivalences": {"es": "Equivalencias", "pt": "Equivalências"},
    "filtrable": {"es": "Talla filtrable", "MLA": "Talle filtrable", "MLU": "Talle filtrable",
                  "pt": "Tamanho filtrável"},
    "foot": {"es": "Largo del pie", "pt": "Comprimento do pé"},
    "body": {"es": "Medidas del cuerpo", "pt": "Medidas do corpo"},
    "garment": {"es": "Medidas de la prenda", "pt": "Medidas da peça"},
    "brand_hint": {"es": "Ej.: Nike", "pt": "Ex.: Nike"},
    "model_hint": {"es": "Ej.: Air Max SC", "pt": "Ex.: Air Max SC"},
}

MEASURES = {
    "CHEST_CIRCUMFERENCE_FROM": ("BODY_MEASURE", "Contorno de pecho desde", "Circunferência do peito de"),
    "CHEST_CIRCUMFERENCE_TO": ("BODY_MEASURE", "Contorno de pecho hasta", "Circunferência do peito até"),
    "WAIST_CIRCUMFERENCE_FROM": ("BODY_MEASURE", "Contorno de cintura desde", "Circunferência da cintura de"),
    "WAIST_CIRCUMFERENCE_TO": ("BODY_MEASURE", "Contorno de cintura hasta", "Circunferência da cintura até"),
    "HIP_CIRCUMFERENCE_FROM": ("BODY_MEASURE", "Contorno de cadera desde", "Circunferência do quadril de"),
    "HIP_CIRCUMFERENCE_TO": ("BODY_MEASURE", "Contorno de cadera hasta", "Circunferência do quadril até"),
    "GARMENT_LENGTH_FROM": ("CLOTHING_MEASURE", "Largo de la prenda", "Comprimento da peça"),
    "GARMENT_WIDTH_FROM": ("CLOTHING_MEASURE", "Ancho de la prenda", "Largura da peça"),
}
# Keyed by domain where it differs, else by the kind of fashion.py.
BODY_MEASURES = {
    "tops": ["CHEST_CIRCUMFERENCE_FROM", "CHEST_CIRCUMFERENCE_TO", "WAIST_CIRCUMFERENCE_FROM",
             "WAIST_CIRCUMFERENCE_TO", "HIP_CIRCUMFERENCE_FROM"],
    "DRESSES": ["CHEST_CIRCUMFERENCE_FROM", "CHEST_CIRCUMFERENCE_TO", "WAIST_CIRCUMFERENCE_FROM",
                "WAIST_CIRCUMFERENCE_TO", "HIP_CIRCUMFERENCE_FROM", "HIP_CIRCUMFERENCE_TO"],
    "bottoms": ["WAIST_CIRCUMFERENCE_FROM", "WAIST_CIRCUMFERENCE_TO", "HIP_CIRCUMFERENCE_FROM",
                "HIP_CIRCUMFERENCE_TO"],
}
CLOTHING_MEASURES = ["GARMENT_LENGTH_FROM", "GARMENT_WIDTH_FROM"]

OTHER_ATTRIBUTES = {  # per kind: a list attribute and a number_unit one, to show both components
    FOOTWEAR: ("EXTERIOR_MATERIALS", ("Materiales del exterior", "Materiais externos"),
               [("Cuero", "Couro"), ("Sintético", "Sintético"), ("Textil", "Têxtil"), ("Gamuza", "Camurça")]),
    "clothes": ("MAIN_MATERIAL", ("Material principal", "Material principal"),
                [("Algodón", "Algodão"), ("Poliéster", "Poliéster"), ("Lino", "Linho"), ("Denim", "Jeans")]),
}
NUMBER_ATTRIBUTES = {
    "SNEAKERS": ("SOLE_HEIGHT", ("Altura de la suela", "Altura do solado"), "mm", ["mm", "cm"]),
    "BOOTS": ("SHAFT_HEIGHT", ("Altura de la caña", "Altura do cano"), "cm", ["cm", "in"]),
}
DEFAULT_NUMBER_ATTRIBUTE = ("PACKAGE_WEIGHT", ("Peso del paquete", "Peso da embalagem"), "g", ["g", "kg"])
UNIT_NAMES = {"cm": "cm", "mm": "mm", "g": "g", "kg": "kg", "in": {"es": "pulg", "pt": "pol"}}


def word(key, site_id):
    return localized(WORDS[key], site_id)


def units(ids, site_id):
    return [{"id": u, "name": UNIT_NAMES[u] if isinstance(UNIT_NAMES[u], str) else UNIT_NAMES[u][language(site_id)]}
            for u in ids]


def attribute(attr_id, name, value_type, tags=(), values=(), hierarchy="FAMILY", relevance=1, unit=None, unit_list=()):
    return {"id": attr_id, "name": name, "value_type": value_type, "value_max_length": 255, "tags": list(tags),
            "values": list(values), "hierarchy": hierarchy, "relevance": relevance, "default_unit_id": unit,
            "units": list(unit_list)}


def component(kind, label, attributes, ui_config=None, unit_list=(), default_unit=None, components=()):
    return {"component": kind, "label": label, "ui_config": ui_config or {}, "attributes": attributes,
            "unified_units": list(unit_list), "default_unified_unit_id": default_unit, "components": list(components)}


def group(group_id, label, relevance, section, components):
    return {"id": group_id, "label": label, "relevance": relevance, "section": section, "ui_config": {},
            "components": components}


def measure_attribute(measure_id, site_id):
    tag, es, pt = MEASURES[measure_id]
    return attribute(measure_id, pt if language(site_id) == "pt" else es, "number_unit", [tag],
                     hierarchy="CHILD_DEPENDENT", relevance=2, unit="cm", unit_list=units(["cm", "in"], site_id))


def specifications_sheet(site_id, domain, value_ids):
    lang = language(site_id)
    kind = FASHION_DOMAINS[domain]["kind"]
    brands = fashion_brands(domain, site_id)
    main = [
        component("COMBO", word("brand", site_id), [attribute(
            "BRAND", word("brand", site_id), "string", ["required", "catalog_required", "grid_filter"],
            [{"id": value_ids.get("BRAND", b), "name": b, "struct": None} for b in brands], "PARENT_PK")],
            {"hint": word("brand_hint", site_id), "allow_custom_value": True, "allow_filtering": True}),
        component("TEXT_INPUT", word("model", site_id), [attribute(
            "MODEL", word("model", site_id), "string", ["catalog_required"], hierarchy="PARENT_PK")],
            {"hint": word("model_hint", site_id)}),
        component("COMBO", word("gender", site_id), [attribute(
            "GENDER", word("gender", site_id), "list",
            ["grid_template_required", "grid_filter", "required", "catalog_required", "fixed"],
            [{**gender_value(key, site_id), "struct": None} for key in GENDERS], "PARENT_PK")],
            {"allow_custom_value": False, "allow_filtering": False}),
        component("COMBO", word("color", site_id), [attribute(
            "COLOR", word("color", site_id), "list", ["variation_attribute", "required"], color_values(site_id),
            "CHILD_PK")], {"allow_custom_value": True, "allow_filtering": True}),
    ]
    chart = [
        component("TEXT_INPUT", word("chart_id", site_id), [attribute(
            "SIZE_GRID_ID", word("chart_id", site_id), "grid_id", ["required", "vip_hidden"], hierarchy="ITEM")]),
        component("TEXT_INPUT", word("row_id", site_id), [attribute(
            "SIZE_GRID_ROW_ID", word("row_id", site_id), "grid_row_id",
            ["variation_attribute", "required", "vip_hidden"], hierarchy="CHILD_DEPENDENT")]),
        component("TEXT_OUTPUT", word("size", site_id), [attribute(
            "SIZE", word("size", site_id), "string", ["variation_attribute", "read_only"], hierarchy="CHILD_PK")]),
    ]
    list_id, list_names, list_values = OTHER_ATTRIBUTES[FOOTWEAR if kind == FOOTWEAR else "clothes"]
    number_id, number_names, unit, unit_ids = NUMBER_ATTRIBUTES.get(domain, DEFAULT_NUMBER_ATTRIBUTE)
    pick = 1 if lang == "pt" else 0
    others = [
        component("COMBO", list_names[pick], [attribute(
            list_id, list_names[pick], "list", ["multivalued"],
            [{"id": value_ids.get(list_id, v[0]), "name": v[pick], "struct": None} for v in list_values],
            relevance=2)], {"allow_custom_value": False, "allow_filtering": True}),
        component("NUMBER_UNIT_INPUT", number_names[pick], [attribute(
            number_id, number_names[pick], "number_unit", [], relevance=2, unit=unit,
            unit_list=units(unit_ids, site_id))], unit_list=units(unit_ids, site_id), default_unit=unit),
    ]
    return {"domain_id": f"{site_id}-{domain}", "section": "SPECIFICATIONS", "input": {"groups": [
        group("MAIN", word("main", site_id), 1, "SPECIFICATIONS", main),
        group("SIZE_CHART", word("chart", site_id), 1, "SPECIFICATIONS", chart),
        group("OTHERS", word("others", site_id), 2, "SPECIFICATIONS", others)]}, "output": {}}


def _footwear_grid(site_id, gender):
    local_id, local_name = SHOE_SIZE[site_id]
    lang = language(site_id)
    equivalences = SHOE_EQUIVALENCES.get(site_id, DEFAULT_SHOE_EQUIVALENCES)
    cm = units(["cm", "in"], site_id)
    return [
        # SIZE is computed from the chart's main attribute, whichever size system that is.
        component("TEXT_OUTPUT", word("size", site_id), [attribute(
            "SIZE", word("size", site_id), "string", ["variation_attribute", "read_only"], hierarchy="CHILD_PK")]),
        component("GRID_ROW_INPUT", local_name, [attribute(
            local_id, local_name, "string", ["required", "main_attribute_candidate"], hierarchy="CHILD_PK")]),
        component("GRID_INPUT", word("equivalences", site_id), [attribute(
            eq, SIZE_ATTRIBUTE_NAMES[eq][lang], "string", ["main_attribute_candidate"], hierarchy="CHILD_DEPENDENT",
            relevance=2) for eq in equivalences]),
        component("NUMBER_UNIT_INPUT", word("foot", site_id), [attribute(
            "FOOT_LENGTH", word("foot", site_id), "number_unit", ["required", "BODY_MEASURE"],
            hierarchy="CHILD_DEPENDENT", unit="cm", unit_list=cm)], unit_list=cm, default_unit="cm"),
    ]


def _clothes_grid(site_id, domain, gender):
    kind = FASHION_DOMAINS[domain]["kind"]
    kids = gender == "KIDS"
    sizes = KIDS_SIZES if kids else ADULT_SIZES
    body = BODY_MEASURES.get(domain) or BODY_MEASURES[kind]
    cm = units(["cm", "in"], site_id)
    return [
        component("GRID_ROW_INPUT", word("size", site_id), [attribute(
            "SIZE", word("size", site_id), "string", ["required", "main_attribute_candidate", "variation_attribute"],
            hierarchy="CHILD_PK")]),
        component("GRID_INPUT", word("filtrable", site_id), [attribute(
            "FILTRABLE_SIZE", word("filtrable", site_id), "list",
            ["required", "variation_attribute", "read_only", "hidden", "vip_hidden"],
            [{**filtrable_size_value(s, kids), "struct": None} for s in sizes], "CHILD_DEPENDENT")]),
        component("NUMBER_UNIT_INPUT", word("body", site_id), [measure_attribute(m, site_id) for m in body],
                  unit_list=cm, default_unit="cm"),
        component("NUMBER_UNIT_INPUT", word("garment", site_id),
                  [measure_attribute(m, site_id) for m in CLOTHING_MEASURES], unit_list=cm, default_unit="cm"),
    ]


def grids_sheet(site_id, domain, gender):
    footwear = FASHION_DOMAINS[domain]["kind"] == FOOTWEAR
    nested = _footwear_grid(site_id, gender) if footwear else _clothes_grid(site_id, domain, gender)
    grid = component("GRID", word("chart", site_id), [], {"max_allowed": 75}, components=nested)
    return {"domain_id": f"{site_id}-{domain}", "section": "GRIDS", "when": {"GENDER": GENDERS[gender][0]},
            "input": {"groups": [group("GRIDS", word("chart", site_id), 1, "GRIDS", [grid])]}, "output": {}}


def technical_specs(value_ids):
    sheets = []
    for site_id, domains in CHART_DOMAINS_BY_SITE.items():
        for domain in domains:
            sheets.append(specifications_sheet(site_id, domain, value_ids))
            sheets.extend(grids_sheet(site_id, domain, gender) for gender in GENDERS)
    return sheets
