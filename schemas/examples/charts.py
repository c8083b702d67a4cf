"""Size chart examples (endpoints 22 to 26 and chart management): answers of the demo, seller 1003."""

# GET /catalog/charts/MLA/configurations/active_domains
ACTIVE_DOMAINS = {
    "domains": [
        {"domain_id": "MLA-BOOTS"}, {"domain_id": "MLA-DRESSES"}, {"domain_id": "MLA-JACKETS"},
        {"domain_id": "MLA-PANTS"}, {"domain_id": "MLA-SHIRTS"}, {"domain_id": "MLA-SNEAKERS"},
        {"domain_id": "MLA-T_SHIRTS"},
    ],
}

# POST /catalog/charts/search?limit=2 with x-caller-id: 1003
SEARCH_REQUEST = {
    "domain_id": "T_SHIRTS", "site_id": "MLA", "seller_id": 1003,
    "attributes": [{"id": "GENDER", "values": [{"name": "Hombre"}]}],
}

SEARCH = {
    "charts": [
        {
            "id": "426219", "names": {"MLA": "Remeras hombre estándar"}, "domain_id": "T_SHIRTS", "site_id": "MLA",
            "type": "STANDARD", "seller_id": None, "main_attribute_id": "SIZE",
            "secondary_attribute_id": "FILTRABLE_SIZE", "measure_type": "BODY_MEASURE",
            "attributes": [{"id": "GENDER", "values": [{"id": "339666", "name": "Hombre"}]}], "rows": [],
        },
        {
            "id": "426258", "names": {"MLA": "Remeras hombre Palermo Basics"}, "domain_id": "T_SHIRTS",
            "site_id": "MLA", "type": "SPECIFIC", "seller_id": 1003, "main_attribute_id": "SIZE",
            "secondary_attribute_id": "FILTRABLE_SIZE", "measure_type": "BODY_MEASURE",
            "attributes": [
                {"id": "GENDER", "values": [{"id": "339666", "name": "Hombre"}]},
                {"id": "BRAND", "values": [{"name": "Palermo Basics"}]},
            ],
            "rows": [],
        },
    ],
    "paging": {"total": 2, "offset": 0, "limit": 2},
}

DOMAINS_SEARCH_REQUEST = {"site_id": "MLA", "type": "STANDARD"}

DOMAINS_WITH_CHARTS = {
    "domains": [
        {"domain_id": "DRESSES"}, {"domain_id": "JACKETS"}, {"domain_id": "PANTS"}, {"domain_id": "SHIRTS"},
        {"domain_id": "SNEAKERS"}, {"domain_id": "T_SHIRTS"},
    ],
}


def _row_request(size, length):
    return {"attributes": [
        {"id": "SIZE", "values": [{"name": size}]}, {"id": "FILTRABLE_SIZE", "values": [{"name": size}]},
        {"id": "GARMENT_LENGTH_FROM", "values": [{"name": f"{length} cm"}]},
    ]}


def _measure(attribute_id, name, cm):
    return {"id": attribute_id, "name": name,
            "values": [{"id": None, "name": f"{cm} cm", "struct": {"number": float(cm), "unit": "cm"}}]}


def _row(number, size, filtrable_size_id, length, *more_measures):
    """Row `number` of CHART as the API answers it: its size, the filtrable size's value id, the garment length
    (and any further measures)."""
    return {"id": f"3364847735:{number}", "attributes": [
        {"id": "SIZE", "name": "Talle", "values": [{"id": None, "name": size, "struct": None}]},
        {"id": "FILTRABLE_SIZE", "name": "Talle filtrable",
         "values": [{"id": filtrable_size_id, "name": size, "struct": None}]},
        _measure("GARMENT_LENGTH_FROM", "Largo de la prenda", length), *more_measures,
    ]}


CREATE_REQUEST = {
    "names": {"MLA": "Remeras oversize hombre"}, "domain_id": "T_SHIRTS", "site_id": "MLA",
    "main_attribute": {"attributes": [{"site_id": "MLA", "id": "SIZE"}]},
    "attributes": [{"id": "GENDER", "values": [{"id": "339666", "name": "Hombre"}]}],
    "rows": [_row_request("M", 74), _row_request("L", 76)],
}

CHART = {
    "id": "3364847735", "names": {"MLA": "Remeras oversize hombre"}, "domain_id": "T_SHIRTS", "site_id": "MLA",
    "type": "SPECIFIC", "seller_id": 1003, "main_attribute_id": "SIZE", "secondary_attribute_id": None,
    "measure_type": "CLOTHING_MEASURE",
    "attributes": [
        {"id": "GENDER", "name": "Género", "values": [{"id": "339666", "name": "Hombre", "struct": None}]},
    ],
    "rows": [_row(1, "M", "3259480", 74), _row(2, "L", "3259481", 76)],
}

RENAME_REQUEST = {"names": {"MLA": "Remeras oversize hombre algodón"}}

# The whole chart, as CHART with its new names
RENAMED = {**CHART, "names": RENAME_REQUEST["names"]}

ROW_REQUEST = _row_request("XL", 78)

ROW = _row(3, "XL", "3259482", 78)

ROW_UPDATE_REQUEST = {"attributes": [{"id": "GARMENT_WIDTH_FROM", "values": [{"name": "52 cm"}]}]}

ROW_UPDATED = _row(1, "M", "3259480", 74, _measure("GARMENT_WIDTH_FROM", "Ancho de la prenda", 52))

DELETED = {"id": "3364847735", "deleted": True}
