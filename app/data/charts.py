"""Size charts of the three types: brand charts, the marketplace's standard charts and sellers' own."""
from app.data.fashion import (
    ADULT_SIZES,
    DEFAULT_SHOE_EQUIVALENCES,
    EU_RANGES,
    FASHION_DOMAINS,
    FOOTWEAR,
    FULL_CHART_SITES,
    KIDS_SIZES,
    SHOE_EQUIVALENCES,
    SHOE_SIZE,
    filtrable_size_value,
    foot_length,
    gender_value,
    shoe_size,
)
from app.data.sheets import BODY_MEASURES, CLOTHING_MEASURES
from app.data.sites import language, localized
from app.data.users import SELLERS

CHART_ID_BASE = 426200

# Body measures in cm, (from, to) per size XS..3XL; kids per size 2..16.
CHEST = {"MALE": [(86, 90), (90, 96), (96, 102), (102, 108), (108, 114), (114, 120), (120, 126)],
         "FEMALE": [(78, 82), (82, 86), (86, 92), (92, 98), (98, 104), (104, 110), (110, 116)],
         "KIDS": [(52, 55), (55, 58), (58, 62), (62, 66), (66, 70), (70, 75), (75, 80), (80, 85)]}
WAIST = {"MALE": [(72, 76), (76, 82), (82, 88), (88, 94), (94, 100), (100, 108), (108, 116)],
         "FEMALE": [(60, 64), (64, 68), (68, 74), (74, 80), (80, 86), (86, 92), (92, 98)],
         "KIDS": [(50, 52), (52, 54), (54, 56), (56, 59), (59, 62), (62, 65), (65, 68), (68, 71)]}
HIP = {"MALE": [(88, 92), (92, 98), (98, 104), (104, 110), (110, 116), (116, 122), (122, 128)],
       "FEMALE": [(86, 90), (90, 94), (94, 100), (100, 106), (106, 112), (112, 118), (118, 124)],
       "KIDS": [(54, 57), (57, 61), (61, 66), (66, 71), (71, 76), (76, 81), (81, 86), (86, 91)]}
# Garment length and width of size XS (or 2), and what each size up adds.
GARMENT = {"T_SHIRTS": (66, 46, 2, 3), "SHIRTS": (72, 50, 2, 3), "JACKETS": (68, 54, 2, 3), "DRESSES": (90, 40, 2, 3),
           "PANTS": (100, 36, 1.5, 2.5)}
# Numeric trouser sizes, XS..3XL; Mexico sizes men's by waist inches and women's by the odd numbers.
PANTS_SIZES = {"MLM": {"MALE": [28, 30, 32, 34, 36, 38, 40], "FEMALE": [3, 5, 7, 9, 11, 13, 15]},
               "default": {"MALE": [38, 40, 42, 44, 46, 48, 50], "FEMALE": [36, 38, 40, 42, 44, 46, 48]}}

GENDER_WORDS = {"MALE": {"es": "hombre", "pt": "masculino"}, "FEMALE": {"es": "mujer", "pt": "feminino"},
                "UNISEX": {"es": "unisex", "pt": "unissex"}, "KIDS": {"es": "niños", "pt": "infantil"}}
FOOTWEAR_WORDS = {"SNEAKERS": {"es": "Calzado", "pt": "Calçado"},
                  "BOOTS": {"es": "Borcegos", "MLM": "Botas", "pt": "Botas"}}
STANDARD_WORD = {"es": "estándar", "pt": "padrão"}

# (site, domain, gender, brand, main attribute, secondary attribute, foot-length offset in cm)
BRAND_CHARTS = [
    ("MLA", "SNEAKERS", "MALE", "adidas", "EU_SIZE", "US_SIZE", 0.0),
    ("MLA", "SNEAKERS", "FEMALE", "adidas", "EU_SIZE", "US_SIZE", 0.0),
    ("MLA", "SNEAKERS", "MALE", "Nike", "AR_SIZE", "US_SIZE", 0.3),
    ("MLA", "SNEAKERS", "FEMALE", "Nike", "AR_SIZE", "US_SIZE", 0.3),
    ("MLA", "SNEAKERS", "MALE", "Topper", "AR_SIZE", "BR_SIZE", -0.2),
    ("MLA", "SNEAKERS", "FEMALE", "Topper", "AR_SIZE", "BR_SIZE", -0.2),
    ("MLA", "BOOTS", "MALE", "Caterpillar", "AR_SIZE", "US_SIZE", 0.5),
    ("MLB", "SNEAKERS", "MALE", "Olympikus", "BR_SIZE", "EU_SIZE", 0.2),
    ("MLB", "SNEAKERS", "FEMALE", "Olympikus", "BR_SIZE", "EU_SIZE", 0.2),
    ("MLB", "SNEAKERS", "MALE", "Nike", "BR_SIZE", "US_SIZE", 0.3),
    ("MLB", "SNEAKERS", "FEMALE", "Nike", "BR_SIZE", "US_SIZE", 0.3),
    ("MLB", "SNEAKERS", "MALE", "adidas", "BR_SIZE", "US_SIZE", 0.0),
    ("MLB", "BOOTS", "MALE", "Caterpillar", "BR_SIZE", "US_SIZE", 0.5),
    ("MLM", "SNEAKERS", "MALE", "Nike", "MX_SIZE", "US_SIZE", 0.3),
    ("MLM", "SNEAKERS", "FEMALE", "Nike", "MX_SIZE", "US_SIZE", 0.3),
    ("MLM", "SNEAKERS", "MALE", "adidas", "MX_SIZE", "US_SIZE", 0.0),
    ("MLM", "SNEAKERS", "FEMALE", "Flexi", "MX_SIZE", "US_SIZE", -0.1),
    ("MLM", "BOOTS", "MALE", "Caterpillar", "MX_SIZE", "US_SIZE", 0.5),
]
# (domain, genders) of the marketplace's standard charts in each of the big three sites
STANDARD_CHARTS = [("T_SHIRTS", ("MALE", "FEMALE", "KIDS")), ("SHIRTS", ("MALE", "FEMALE")),
                   ("JACKETS", ("MALE", "FEMALE")), ("PANTS", ("MALE", "FEMALE")), ("DRESSES", ("FEMALE",)),
                   ("SNEAKERS", ("MALE", "FEMALE", "KIDS"))]
# (seller, domain, gender, measure type, first and last size index): sellers' own charts
SPECIFIC_CHARTS = [
    (1003, "T_SHIRTS", "MALE", "BODY_MEASURE", 1, 5), (1003, "T_SHIRTS", "FEMALE", "CLOTHING_MEASURE", 0, 4),
    (1003, "PANTS", "FEMALE", "CLOTHING_MEASURE", 0, 5), (1003, "JACKETS", "UNISEX", "CLOTHING_MEASURE", 1, 5),
    (1003, "SNEAKERS", "FEMALE", "BODY_MEASURE", 1, 6),
    (2002, "T_SHIRTS", "FEMALE", "BODY_MEASURE", 0, 5), (2002, "DRESSES", "FEMALE", "CLOTHING_MEASURE", 1, 4),
    (2002, "PANTS", "MALE", "BODY_MEASURE", 1, 6),
    (3001, "T_SHIRTS", "FEMALE", "BODY_MEASURE", 0, 4), (3001, "DRESSES", "FEMALE", "BODY_MEASURE", 0, 5),
    (3001, "SNEAKERS", "MALE", "BODY_MEASURE", 1, 7), (3001, "SHIRTS", "MALE", "CLOTHING_MEASURE", 1, 5),
    (4001, "T_SHIRTS", "FEMALE", "CLOTHING_MEASURE", 1, 4), (4001, "SNEAKERS", "MALE", "BODY_MEASURE", 1, 6),
    (5001, "SNEAKERS", "FEMALE", "BODY_MEASURE", 0, 6), (5001, "SNEAKERS", "MALE", "BODY_MEASURE", 1, 8),
    (5001, "T_SHIRTS", "MALE", "BODY_MEASURE", 1, 5),
    (6001, "SNEAKERS", "MALE", "BODY_MEASURE", 0, 7), (6001, "SNEAKERS", "KIDS", "BODY_MEASURE", 0, 8),
]


def _named(attr_id, name, value_id=None):
    value = {"id": value_id, "name": name} if value_id else {"name": name}
    return {"id": attr_id, "values": [value]}


def _cm(number):
    return f"{number:g} cm"


def footwear_rows(site_id, gender, main, offset=0.0, first=0, last=None):
    local = SHOE_SIZE[site_id][0]
    systems = [local] + SHOE_EQUIVALENCES.get(site_id, DEFAULT_SHOE_EQUIVALENCES)
    rows = []
    for eu in list(EU_RANGES[gender])[first:last]:
        values = {system: shoe_size(system, eu, gender) for system in systems}
        rows.append([_named("SIZE", values[main])] + [_named(s, values[s]) for s in systems]
                    + [_named("FOOT_LENGTH", _cm(foot_length(eu, offset)))])
    return rows


def clothes_rows(site_id, domain, gender, measure_type, first=0, last=None):
    kids = gender == "KIDS"
    table = "MALE" if gender == "UNISEX" else gender
    sizes = KIDS_SIZES if kids else ADULT_SIZES
    length, width, length_step, width_step = GARMENT[domain]
    if kids:
        length, width = length * 0.6, width * 0.7
    rows = []
    for index in range(len(sizes))[first:last]:
        letter = sizes[index]
        size_name = letter
        if domain == "PANTS" and not kids:
            size_name = str(localized({"MLM": PANTS_SIZES["MLM"], "es": PANTS_SIZES["default"],
                                       "pt": PANTS_SIZES["default"]}, site_id)[table][index])
        row = [_named("SIZE", size_name), {"id": "FILTRABLE_SIZE", "values": [filtrable_size_value(letter, kids)]}]
        if measure_type == "BODY_MEASURE":
            kind = FASHION_DOMAINS[domain]["kind"]
            for measure in BODY_MEASURES.get(domain) or BODY_MEASURES[kind]:
                source = {"CHEST": CHEST, "WAIST": WAIST, "HIP": HIP}[measure.split("_")[0]][table][index]
                row.append(_named(measure, _cm(source[0] if measure.endswith("FROM") else source[1])))
        else:
            row.append(_named(CLOTHING_MEASURES[0], _cm(round(length + length_step * index, 1))))
            row.append(_named(CLOTHING_MEASURES[1], _cm(round(width + width_step * index, 1))))
        rows.append(row)
    return rows


def _gender_word(gender, site_id):
    return GENDER_WORDS[gender][language(site_id)]


def size_charts():
    charts = []

    def add(site_id, domain, chart_type, gender, name, main, secondary, measure_type, rows, brand=None, seller=None):
        chart_id = str(CHART_ID_BASE + len(charts) + 1)
        assert len(name) <= 60 and not set(name) & set("()-"), name
        attributes = [{"id": "GENDER", "values": [gender_value(gender, site_id)]}]
        if brand:
            attributes.append({"id": "BRAND", "values": [{"name": brand}]})
        charts.append({"id": chart_id, "names": {site_id: name}, "site_id": site_id, "domain_id": domain,
                       "type": chart_type, "seller_id": seller, "main_attribute_id": main,
                       "secondary_attribute_id": secondary, "measure_type": measure_type, "attributes": attributes,
                       "rows": [{"id": f"{chart_id}:{n}", "attributes": row} for n, row in enumerate(rows, 1)]})

    for site_id, domain, gender, brand, main, secondary, offset in BRAND_CHARTS:
        name = f"{localized(FOOTWEAR_WORDS[domain], site_id)} {_gender_word(gender, site_id)} {brand}"
        add(site_id, domain, "BRAND", gender, name, main, secondary, "BODY_MEASURE",
            footwear_rows(site_id, gender, main, offset), brand=brand)

    for site_id in FULL_CHART_SITES:
        for domain, genders in STANDARD_CHARTS:
            for gender in genders:
                label = localized(FASHION_DOMAINS[domain]["names"], site_id)
                name = f"{label} {_gender_word(gender, site_id)} {localized(STANDARD_WORD, site_id)}"
                if FASHION_DOMAINS[domain]["kind"] == FOOTWEAR:
                    local = SHOE_SIZE[site_id][0]
                    add(site_id, domain, "STANDARD", gender, name, local, "EU_SIZE", "BODY_MEASURE",
                        footwear_rows(site_id, gender, local))
                else:
                    add(site_id, domain, "STANDARD", gender, name, "SIZE", "FILTRABLE_SIZE", "BODY_MEASURE",
                        clothes_rows(site_id, domain, gender, "BODY_MEASURE"))

    for seller, domain, gender, measure_type, first, last in SPECIFIC_CHARTS:
        _, site_id, _, house_brand = SELLERS[seller]
        label = localized(FASHION_DOMAINS[domain]["names"], site_id)
        name = f"{label} {_gender_word(gender, site_id)} {house_brand}"
        if FASHION_DOMAINS[domain]["kind"] == FOOTWEAR:
            local = SHOE_SIZE[site_id][0]
            add(site_id, domain, "SPECIFIC", gender, name, local, "US_SIZE", measure_type,
                footwear_rows(site_id, gender, local, 0.1, first, last), house_brand, seller)
        else:
            add(site_id, domain, "SPECIFIC", gender, name, "SIZE", "FILTRABLE_SIZE", measure_type,
                clothes_rows(site_id, domain, gender, measure_type, first, last), house_brand, seller)
    return charts
