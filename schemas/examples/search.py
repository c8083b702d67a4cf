"""Site search and category predictor examples: answers of the demo."""

# GET /sites/MLA/search?q=pastillas%20freno&limit=2
SEARCH = {
    "site_id": "MLA", "query": "pastillas freno", "paging": {"total": 23, "offset": 0, "limit": 2},
    "results": [
        {
            "id": "MLA1500000029", "site_id": "MLA",
            "title": "Juego pastillas de freno delanteras Frenotec Volkswagen Fox 1.6", "price": 32500.0,
            "currency_id": "ARS", "category_id": "MLA1747", "domain_id": "MLA-BRAKE_PADS", "seller": {"id": 1001},
            "official_store_id": None, "catalog_product_id": None, "catalog_listing": False, "status": "active",
        },
        {
            "id": "MLA1500000066", "site_id": "MLA",
            "title": "Juego pastillas de freno delanteras Frenotec Volkswagen Saveiro 1.6", "price": 63900.0,
            "currency_id": "ARS", "category_id": "MLA1747", "domain_id": "MLA-BRAKE_PADS", "seller": {"id": 1001},
            "official_store_id": None, "catalog_product_id": None, "catalog_listing": False, "status": "active",
        },
    ],
    "sort": {"id": "relevance", "name": "Más relevantes"},
    "available_sorts": [{"id": "price_asc", "name": "Menor precio"}, {"id": "price_desc", "name": "Mayor precio"}],
    "filters": [],
    "available_filters": [
        {
            "id": "category", "name": "Categorías", "type": "text",
            "values": [
                {"id": "MLA1747", "name": "Pastillas de freno", "results": 19},
                {"id": "MLA86838", "name": "Pastillas de freno para motos", "results": 4},
            ],
        },
    ],
}

# GET /sites/MLA/domain_discovery/search?q=Remera manga corta algodón hombre&limit=2
DOMAIN_PREDICTIONS = [
    {
        "domain_id": "MLA-T_SHIRTS", "domain_name": "Remeras", "category_id": "MLA417121", "category_name": "Remeras",
        "attributes": [],
    },
    {
        "domain_id": "MLA-SHIRTS", "domain_name": "Camisas", "category_id": "MLA417123", "category_name": "Camisas",
        "attributes": [],
    },
]
