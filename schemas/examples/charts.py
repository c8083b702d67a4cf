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

CREATE_REQUEST = {
    "names": {"MLA": "Remeras oversize hombre"}, "domain_id": "T_SHIRTS", "site_id": "MLA",
    "main_attribute": {"attributes": [{"site_id": "MLA", "id": "SIZE"}]},
    "attributes": [{"id": "GENDER", "values": [{"id": "339666", "name": "Hombre"}]}],
    "rows": [
        {
            "attributes": [
                {"id": "SIZE", "values": [{"name": "M"}]}, {"id": "FILTRABLE_SIZE", "values": [{"name": "M"}]},
                {"id": "GARMENT_LENGTH_FROM", "values": [{"name": "74 cm"}]},
            ],
        },
        {
            "attributes": [
                {"id": "SIZE", "values": [{"name": "L"}]}, {"id": "FILTRABLE_SIZE", "values": [{"name": "L"}]},
                {"id": "GARMENT_LENGTH_FROM", "values": [{"name": "76 cm"}]},
            ],
        },
    ],
}

CHART = {
    "id": "3364847735", "names": {"MLA": "Remeras oversize hombre"}, "domain_id": "T_SHIRTS", "site_id": "MLA",
    "type": "SPECIFIC", "seller_id": 1003, "main_attribute_id": "SIZE", "secondary_attribute_id": None,
    "measure_type": "CLOTHING_MEASURE",
    "attributes": [
        {"id": "GENDER", "name": "Género", "values": [{"id": "339666", "name": "Hombre", "struct": None}]},
    ],
    "rows": [
        {
            "id": "3364847735:1",
            "attributes": [
                {"id": "SIZE", "name": "Talle", "values": [{"id": None, "name": "M", "struct": None}]},
                {
                    "id": "FILTRABLE_SIZE", "name": "Talle filtrable",
                    "values": [{"id": "3259480", "name": "M", "struct": None}],
                },
                {
                    "id": "GARMENT_LENGTH_FROM", "name": "Largo de la prenda",
                    "values": [{"id": None, "name": "74 cm", "struct": {"number": 74.0, "unit": "cm"}}],
                },
            ],
        },
        {
            "id": "3364847735:2",
            "attributes": [
                {"id": "SIZE", "name": "Talle", "values": [{"id": None, "name": "L", "struct": None}]},
                {
                    "id": "FILTRABLE_SIZE", "name": "Talle filtrable",
                    "values": [{"id": "3259481", "name": "L", "struct": None}],
                },
                {
                    "id": "GARMENT_LENGTH_FROM", "name": "Largo de la prenda",
                    "values": [{"id": None, "name": "76 cm", "struct": {"number": 76.0, "unit": "cm"}}],
                },
            ],
        },
    ],
}

RENAME_REQUEST = {"names": {"MLA": "Remeras oversize hombre algodón"}}

# The whole chart, as CHART with its new names
RENAMED = {**CHART, "names": RENAME_REQUEST["names"]}

ROW_REQUEST = {
    "attributes": [
        {"id": "SIZE", "values": [{"name": "XL"}]}, {"id": "FILTRABLE_SIZE", "values": [{"name": "XL"}]},
        {"id": "GARMENT_LENGTH_FROM", "values": [{"name": "78 cm"}]},
    ],
}

ROW = {
    "id": "3364847735:3",
    "attributes": [
        {"id": "SIZE", "name": "Talle", "values": [{"id": None, "name": "XL", "struct": None}]},
        {
            "id": "FILTRABLE_SIZE", "name": "Talle filtrable",
            "values": [{"id": "3259482", "name": "XL", "struct": None}],
        },
        {
            "id": "GARMENT_LENGTH_FROM", "name": "Largo de la prenda",
            "values": [{"id": None, "name": "78 cm", "struct": {"number": 78.0, "unit": "cm"}}],
        },
    ],
}

ROW_UPDATE_REQUEST = {"attributes": [{"id": "GARMENT_WIDTH_FROM", "values": [{"name": "52 cm"}]}]}

ROW_UPDATED = {
    "id": "3364847735:1",
    "attributes": [
        {"id": "SIZE", "name": "Talle", "values": [{"id": None, "name": "M", "struct": None}]},
        {
            "id": "FILTRABLE_SIZE", "name": "Talle filtrable",
            "values": [{"id": "3259480", "name": "M", "struct": None}],
        },
        {
            "id": "GARMENT_LENGTH_FROM", "name": "Largo de la prenda",
            "values": [{"id": None, "name": "74 cm", "struct": {"number": 74.0, "unit": "cm"}}],
        },
        {
            "id": "GARMENT_WIDTH_FROM", "name": "Ancho de la prenda",
            "values": [{"id": None, "name": "52 cm", "struct": {"number": 52.0, "unit": "cm"}}],
        },
    ],
}

DELETED = {"id": "3364847735", "deleted": True}
