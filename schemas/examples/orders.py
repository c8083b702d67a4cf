"""Order snapshot example (endpoint 21): an answer of the demo."""

# GET /compats-snapshots/orders/2000004512
SNAPSHOT = {
    "item_id": "MLA1500000010", "product_id": "MLA15900133", "seller_id": "1001",
    "user_selection": {
        "label_values": [
            {
                "label": "Marca", "value_name": "Volkswagen",
                "values": [{"attribute_id": "BRAND", "value_id": "60249"}],
            },
            {"label": "Modelo", "value_name": "Voyage", "values": [{"attribute_id": "MODEL", "value_id": "62661"}]},
            {"label": "Año", "value_name": "2015", "values": [{"attribute_id": "VEHICLE_YEAR", "value_id": "2015"}]},
            {
                "label": "Versión", "value_name": "1.6 Comfortline",
                "values": [{"attribute_id": "SHORT_VERSION", "value_id": "1799222"}],
            },
        ],
    },
    "compatibility_status": {
        "compatibility": "CONFIRMED", "compatibility_id": "019bdb46-aa00-7ffb-8004-7d932da881a5",
    },
    "compatibility_deleted": False, "date_created": "2025-11-22T16:36:18Z", "date_updated": "2025-11-24T11:36:18Z",
}
