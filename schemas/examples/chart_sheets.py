"""Technical specification sheet examples (endpoints 23 and 24): answers of the demo."""

# GET /domains/MLA-T_SHIRTS/technical_specs (two attributes of the MAIN group shown)
DOMAIN_SHEET = {
    "input": {
        "groups": [
            {
                "id": "MAIN", "label": "Características principales", "relevance": 1, "section": "SPECIFICATIONS",
                "ui_config": {},
                "components": [
                    {
                        "component": "COMBO", "label": "Marca",
                        "ui_config": {"hint": "Ej.: Nike", "allow_custom_value": True, "allow_filtering": True},
                        "attributes": [
                            {
                                "id": "BRAND", "name": "Marca", "value_type": "string", "value_max_length": 255,
                                "tags": ["required", "catalog_required", "grid_filter"],
                                "values": [
                                    {"id": "60134", "name": "Kevingston", "struct": None},
                                    {"id": "61249", "name": "Levi's", "struct": None},
                                ],
                                "hierarchy": "PARENT_PK", "relevance": 1, "default_unit_id": None, "units": [],
                            },
                        ],
                        "unified_units": [], "default_unified_unit_id": None, "components": [],
                    },
                    {
                        "component": "COMBO", "label": "Género",
                        "ui_config": {"allow_custom_value": False, "allow_filtering": False},
                        "attributes": [
                            {
                                "id": "GENDER", "name": "Género", "value_type": "list", "value_max_length": 255,
                                "tags": [
                                    "grid_template_required", "grid_filter", "required", "catalog_required", "fixed",
                                ],
                                "values": [
                                    {"id": "339666", "name": "Hombre", "struct": None},
                                    {"id": "339665", "name": "Mujer", "struct": None},
                                ],
                                "hierarchy": "PARENT_PK", "relevance": 1, "default_unit_id": None, "units": [],
                            },
                        ],
                        "unified_units": [], "default_unified_unit_id": None, "components": [],
                    },
                ],
            },
        ],
    },
    "output": {},
}

# POST /domains/MLA-T_SHIRTS/technical_specs?section=grids
CHART_SHEET_REQUEST = {"attributes": [{"id": "GENDER", "value_id": "339666", "value_name": "Hombre"}]}

# Trimmed: the body measures left out, three values per list
CHART_SHEET = {
    "input": {
        "groups": [
            {
                "id": "GRIDS", "label": "Guía de talles", "relevance": 1, "section": "GRIDS", "ui_config": {},
                "components": [
                    {
                        "component": "GRID", "label": "Guía de talles", "ui_config": {"max_allowed": 75},
                        "attributes": [], "unified_units": [], "default_unified_unit_id": None,
                        "components": [
                            {
                                "component": "GRID_ROW_INPUT", "label": "Talle", "ui_config": {},
                                "attributes": [
                                    {
                                        "id": "SIZE", "name": "Talle", "value_type": "string",
                                        "value_max_length": 255,
                                        "tags": ["required", "main_attribute_candidate", "variation_attribute"],
                                        "values": [], "hierarchy": "CHILD_PK", "relevance": 1,
                                        "default_unit_id": None, "units": [],
                                    },
                                ],
                                "unified_units": [], "default_unified_unit_id": None, "components": [],
                            },
                            {
                                "component": "GRID_INPUT", "label": "Talle filtrable", "ui_config": {},
                                "attributes": [
                                    {
                                        "id": "FILTRABLE_SIZE", "name": "Talle filtrable", "value_type": "list",
                                        "value_max_length": 255,
                                        "tags": [
                                            "required", "variation_attribute", "read_only", "hidden", "vip_hidden",
                                        ],
                                        "values": [
                                            {"id": "3259478", "name": "XS", "struct": None},
                                            {"id": "3259479", "name": "S", "struct": None},
                                            {"id": "3259480", "name": "M", "struct": None},
                                        ],
                                        "hierarchy": "CHILD_DEPENDENT", "relevance": 1, "default_unit_id": None,
                                        "units": [],
                                    },
                                ],
                                "unified_units": [], "default_unified_unit_id": None, "components": [],
                            },
                            {
                                "component": "NUMBER_UNIT_INPUT", "label": "Medidas de la prenda", "ui_config": {},
                                "attributes": [
                                    {
                                        "id": "GARMENT_LENGTH_FROM", "name": "Largo de la prenda",
                                        "value_type": "number_unit", "value_max_length": 255,
                                        "tags": ["CLOTHING_MEASURE"], "values": [], "hierarchy": "CHILD_DEPENDENT",
                                        "relevance": 2, "default_unit_id": "cm",
                                        "units": [{"id": "cm", "name": "cm"}, {"id": "in", "name": "pulg"}],
                                    },
                                    {
                                        "id": "GARMENT_WIDTH_FROM", "name": "Ancho de la prenda",
                                        "value_type": "number_unit", "value_max_length": 255,
                                        "tags": ["CLOTHING_MEASURE"], "values": [], "hierarchy": "CHILD_DEPENDENT",
                                        "relevance": 2, "default_unit_id": "cm",
                                        "units": [{"id": "cm", "name": "cm"}, {"id": "in", "name": "pulg"}],
                                    },
                                ],
                                "unified_units": [{"id": "cm", "name": "cm"}, {"id": "in", "name": "pulg"}],
                                "default_unified_unit_id": "cm", "components": [],
                            },
                        ],
                    },
                ],
            },
        ],
    },
    "output": {},
}
