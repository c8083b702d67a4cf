"""Buyer fitment examples (extensions.md B): answers of the demo for the Volkswagen Gol 2010."""
from schemas.examples.search import SEARCH

FRONT = [{"attribute_id": "POSITION", "attribute_values": [
    {"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}]
SORTS = {"sort": {"id": "relevance", "name": "Más relevantes"},
         "available_sorts": [{"id": "price_asc", "name": "Menor precio"}, {"id": "price_desc", "name": "Mayor precio"}],
         "filters": []}


def _result(item_id, title, price, category_id, domain_id, seller_id, compatibility):
    return {"id": item_id, "site_id": "MLA", "title": title, "price": price, "currency_id": "ARS",
            "category_id": category_id, "domain_id": domain_id, "seller": {"id": seller_id},
            "official_store_id": None, "catalog_product_id": None, "catalog_listing": False, "status": "active",
            "compatibility": compatibility}


def _categories(*values):
    return [{"id": "category", "name": "Categorías", "type": "text",
             "values": [{"id": i, "name": n, "results": r} for i, n, r in values]}]


# GET /sites/MLA/search?compatible_with=MLA15900013&q=pastillas&limit=2 (Volkswagen Gol 1.6 Power 2010)
SEARCH_COMPATIBLE_WITH = {
    "site_id": "MLA", "query": "pastillas", "paging": {"total": 2, "offset": 0, "limit": 2},
    "results": [
        _result("MLA1500000031", "Pastillas de freno delanteras Jurid Volkswagen Gol", 33000.0, "MLA1747",
                "MLA-BRAKE_PADS", 1001,
                {"status": "COMPATIBLE", "note": "Solo versiones con ABS", "restrictions": FRONT}),
        _result("MLA1500000158", "Pastillas de freno delanteras Bosch Volkswagen Gol 1.6", 37200.0, "MLA1747",
                "MLA-BRAKE_PADS", 1002, {"status": "COMPATIBLE",
                                         "note": "Verificar el diámetro del disco antes de comprar",
                                         "restrictions": FRONT}),
    ],
    **SORTS,
    "available_filters": _categories(("MLA1747", "Pastillas de freno", 2)),
}

# GET /sites/MLA/search?compatibility_filter=BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010&limit=3&offset=3
SEARCH_COMPATIBILITY_FILTER = {
    "site_id": "MLA", "query": None, "paging": {"total": 7, "offset": 3, "limit": 3},
    "results": [
        _result("MLA1500000157", "Filtro de aire Mann Volkswagen Gol 2008-2012", 13700.0, "MLA6546",
                "MLA-AIR_FILTERS", 1002, {"status": "COMPATIBLE"}),
        _result("MLA1500000158", "Pastillas de freno delanteras Bosch Volkswagen Gol 1.6", 37200.0, "MLA1747",
                "MLA-BRAKE_PADS", 1002, {"status": "UNDETERMINED"}),
        _result("MLA1500000160", "Kit 4 bujías NGK Iridium Volkswagen Gol 1.6 2010", 67700.0, "MLA6520",
                "MLA-SPARK_PLUGS", 1002, {"status": "UNDETERMINED"}),
    ],
    **SORTS,
    "available_filters": _categories(("MLA1747", "Pastillas de freno", 2), ("MLA6520", "Bujías", 1),
                                     ("MLA6546", "Filtros de aire", 1), ("MLA6563", "Escobillas", 1),
                                     ("MLA6580", "Kits de distribución", 1), ("MLA8533", "Alfombras", 1)),
}

SEARCH_EXAMPLES = {
    "words": {"summary": "?q=pastillas freno&limit=2", "value": SEARCH},
    "compatible_with": {"summary": "?compatible_with=MLA15900013&q=pastillas&limit=2 (one vehicle: note and "
                                   "restrictions)", "value": SEARCH_COMPATIBLE_WITH},
    "compatibility_filter": {"summary": "?compatibility_filter=BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010"
                                        "&limit=3&offset=3 (five vehicles: fits all or some)",
                             "value": SEARCH_COMPATIBILITY_FILTER},
}

GOL_2010 = [{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_id": "62109"},
            {"id": "VEHICLE_YEAR", "value_id": "2010"}]
# POST /items/MLA1500000158/check_compatibility
CHECK_PRODUCT_REQUEST = {"product_id": "MLA15900013"}
CHECK_VEHICLE_REQUEST = {"attributes": GOL_2010}
CHECK_REQUEST_EXAMPLES = {
    "product": {"summary": "A vehicle (Volkswagen Gol 1.6 Power 2010)", "value": CHECK_PRODUCT_REQUEST},
    "attributes": {"summary": "A partly known vehicle (Volkswagen Gol 2010)", "value": CHECK_VEHICLE_REQUEST},
}
CHECK_COMPATIBLE = {"compatibility_status": "COMPATIBLE", "product_ids": ["MLA15900013"],
                    "note": "Verificar el diámetro del disco antes de comprar", "restrictions": FRONT}
CHECK_UNDETERMINED = {"compatibility_status": "UNDETERMINED",
                      "product_ids": ["MLA15900013", "MLA15900014", "MLA15900016"]}
CHECK_EXAMPLES = {
    "compatible": {"summary": "By product: fits, with the moderated note and restrictions", "value": CHECK_COMPATIBLE},
    "undetermined": {"summary": "By attributes: fits 3 of the 5 Gol 2010 versions", "value": CHECK_UNDETERMINED},
    "not_compatible": {"summary": "Does not fit", "value": {"compatibility_status": "NOT_COMPATIBLE"}},
}
