"""Item, seller search, summary and card examples (endpoints 3 to 6, 11): answers of the demo."""

# GET /items/MLA1500000016
ITEM = {
    "id": "MLA1500000016", "site_id": "MLA",
    "title": "Discos de freno delanteros ventilados Hipper Freios Jeep Renegade 1.3", "seller_id": 1001,
    "category_id": "MLA6508", "domain_id": "MLA-BRAKE_DISCS", "official_store_id": None, "status": "active",
    "price": 63000.0, "currency_id": "ARS", "tags": ["incomplete_compatibilities"],
    "warranty": "Garantía del vendedor: 6 meses", "catalog_product_id": None, "parent_item_id": None, "deal_ids": [],
    "automatic_relist": False, "date_created": "2025-03-20T00:09:58Z", "last_updated": "2025-12-05T17:45:13Z",
    "health": 0.59, "catalog_listing": False,
    "attributes": [
        {
            "id": "BRAND", "name": "Marca", "value_id": None, "value_name": "Hipper Freios",
            "values": [{"id": None, "name": "Hipper Freios", "struct": None}], "value_type": "string",
        },
        {
            "id": "PART_NUMBER", "name": "Número de pieza", "value_id": None, "value_name": "HIP55562",
            "values": [{"id": None, "name": "HIP55562", "struct": None}], "value_type": "string",
        },
        {
            "id": "ITEM_CONDITION", "name": "Condición del ítem", "value_id": "2230284", "value_name": "Nuevo",
            "values": [{"id": "2230284", "name": "Nuevo", "struct": None}], "value_type": "list",
        },
        {
            "id": "POSITION", "name": "Posición", "value_id": "13701104", "value_name": "Delantera",
            "values": [{"id": "13701104", "name": "Delantera", "struct": None}], "value_type": "list",
        },
    ],
}

# GET /users/1001/items/search?tags=incomplete_compatibilities
SELLER_ITEM_SEARCH = {
    "seller_id": "1001", "query": None, "filters": {"tags": ["incomplete_compatibilities"]},
    "results": ["MLA1500000014", "MLA1500000016", "MLA1500000073", "MLA1500000076"],
    "paging": {"total": 4, "offset": 0, "limit": 50},
}

SUMMARY_REQUEST = {"domain_id": "MLA-BRAKE_PADS", "items": ["MLA1500000010", "MLA1500000008"]}

SUMMARY = [
    {
        "item_id": "MLA1500000010", "item_title": "Pastillas de freno delanteras Jurid Volkswagen Voyage 1.6",
        "compatibilities_count": 38, "compatibilities_claims_count": 3, "notes_count": 0, "restrictions_count": 33,
    },
    {
        "item_id": "MLA1500000008",
        "item_title": "Juego pastillas de freno delanteras Fras-le Renault Duster Kangoo 1.5",
        "compatibilities_count": 21, "compatibilities_claims_count": 0, "notes_count": 0, "restrictions_count": 19,
    },
]

# POST /catalog_domains/MLA-BRAKE_PADS/compatibilities/cards; no pending suggestion, so one card
CARDS_REQUEST = {"item_id": "MLA1500000010", "filters": ["SUGGESTED", "REPUTATION"]}

CARDS = [
    {
        "title": "1 compatibilidad con reclamos",
        "subtitle": ("Compradores indicaron que el repuesto no era compatible con estos vehículos: "
                     "revísalos y corrige tus compatibilidades."),
        "filter": "REPUTATION", "quantity": 1,
    },
]
