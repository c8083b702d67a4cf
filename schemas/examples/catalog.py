"""Compatibility catalog examples (endpoints 1 and 7): answers of the demo."""

# GET /catalog/dumps/domains/MLA/compatibilities, two of the twelve entries.
DOMAIN_DUMP = [
    {
        "domain_id": "MLA-BRAKE_DISCS", "main": False,
        "compatibilities": [
            {
                "compatible_domain_id": "MLA-CARS_AND_VANS", "type": "EXTENSION", "required": True,
                "restrictions": [],
                "categories": [
                    {
                        "id": "MLA6508", "required": True, "note_status": "ENABLED", "restrictions_status": "ENABLED",
                        "universal_status": "DISABLED",
                    },
                ],
            },
        ],
    },
    {"domain_id": "MLA-CARS_AND_VANS", "main": True, "compatibilities": []},
]

# GET /catalog_compatibilities/restrictions/values?main_domain_id=MLA-CARS_AND_VANS&secondary_domain_id=MLA-BRAKE_DISCS
RESTRICTION_VALUES = {
    "attributes_values": [
        {
            "attribute_id": "POSITION",
            "values": [
                {"value_id": "13701104", "value_name": "Delantera"},
                {"value_id": "13701105", "value_name": "Trasera"},
            ],
        },
    ],
}
