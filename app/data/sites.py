"""Sites, currencies and the regional vocabulary the other demo modules share."""

SITES = [
    {"id": "MLA", "name": "Argentina", "default_currency_id": "ARS", "language": "es"},
    {"id": "MLB", "name": "Brasil", "default_currency_id": "BRL", "language": "pt"},
    {"id": "MLM", "name": "México", "default_currency_id": "MXN", "language": "es"},
    {"id": "MLU", "name": "Uruguay", "default_currency_id": "UYU", "language": "es"},
    {"id": "MLC", "name": "Chile", "default_currency_id": "CLP", "language": "es"},
    {"id": "MCO", "name": "Colombia", "default_currency_id": "COP", "language": "es"},
    # Perú has fashion domains but no size-chart configuration: endpoint 22's "config not found".
    {"id": "MPE", "name": "Perú", "default_currency_id": "PEN", "language": "es"},
]
SITE_IDS = [site["id"] for site in SITES]
CURRENCY_OF = {site["id"]: site["default_currency_id"] for site in SITES}

CURRENCIES = [
    {"id": "ARS", "description": "Peso argentino", "symbol": "$", "decimal_places": 2},
    {"id": "BRL", "description": "Real", "symbol": "R$", "decimal_places": 2},
    {"id": "MXN", "description": "Peso mexicano", "symbol": "$", "decimal_places": 2},
    {"id": "UYU", "description": "Peso uruguayo", "symbol": "$U", "decimal_places": 2},
    {"id": "CLP", "description": "Peso chileno", "symbol": "$", "decimal_places": 0},
    {"id": "COP", "description": "Peso colombiano", "symbol": "$", "decimal_places": 2},
    {"id": "PEN", "description": "Sol peruano", "symbol": "S/", "decimal_places": 2},
    {"id": "USD", "description": "Dólar estadounidense", "symbol": "US$", "decimal_places": 2},
]


def language(site_id: str) -> str:
    return "pt" if site_id == "MLB" else "es"


def localized(table: dict, site_id: str):
    """A site's own wording when it has one (MLM says "balatas"), else its language's."""
    return table[site_id] if site_id in table else table[language(site_id)]


VEHICLE_ATTRIBUTE_NAMES = {
    "es": {"BRAND": "Marca", "MODEL": "Modelo", "VEHICLE_YEAR": "Año", "SHORT_VERSION": "Versión",
           "ENGINE": "Motor", "FUEL_TYPE": "Tipo de combustible"},
    "pt": {"BRAND": "Marca", "MODEL": "Modelo", "VEHICLE_YEAR": "Ano", "SHORT_VERSION": "Versão",
           "ENGINE": "Motor", "FUEL_TYPE": "Tipo de combustível"},
}

# What the pump says: Argentina and Uruguay sell "nafta", Chile "bencina", Brazil's cars run "flex".
FUEL_NAMES = {
    "es": {"gasoline": "Gasolina", "diesel": "Diésel", "hybrid": "Híbrido"},
    "MLA": {"gasoline": "Nafta", "diesel": "Diésel", "hybrid": "Híbrido"},
    "MLU": {"gasoline": "Nafta", "diesel": "Diésel", "hybrid": "Híbrido"},
    "MLC": {"gasoline": "Bencina", "diesel": "Diésel", "hybrid": "Híbrido"},
    "pt": {"gasoline": "Flex", "diesel": "Diesel", "hybrid": "Híbrido"},
}
