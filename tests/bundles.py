"""A small catalog bundle for tests, loaded through the real import (import-format.md).

`base_bundle()` returns a new dict each call, so a test may add to it before loading.
Vehicles: 3 brands x 2 models x 3 years x 2 versions = 36 child products in MLA (ids
MLA9<nnnn>, parents MLA8<nnn>), plus 4 in MLB.
"""
import itertools

SELLER = 1001
OTHER_SELLER = 1002
MLB_SELLER = 2001
TOKENS = {SELLER: "TEST-1001-seller", OTHER_SELLER: "TEST-1002-other", MLB_SELLER: "TEST-2001-mlb"}

BRANDS = {"Volkswagen": ("60249", {"Gol": "62109", "Amarok": "62110"}),
          "Toyota": ("60297", {"Hilux": "62200", "Corolla": "62201"}),
          "Ford": ("60279", {"Ranger": "62300", "Focus": "62301"})}
YEARS = ("2010", "2015", "2020")
VERSIONS = (("1.6 Trendline", "70001"), ("2.0 Highline", "70002"))
POSITION_VALUES = [{"value_id": "13701104", "value_name": "Delantera"},
                   {"value_id": "13701105", "value_name": "Trasera"}]


def vehicle_products(site="MLA", domain="MLA-CARS_AND_VANS"):
    products, parent_seq, child_seq = [], 0, 0
    for (brand, (brand_id, models)), year in itertools.product(BRANDS.items(), YEARS):
        for model, model_id in models.items():
            parent_seq += 1
            parent_id = f"{site}8{parent_seq:03d}"
            base_attrs = [{"id": "BRAND", "value_id": brand_id, "value_name": brand},
                          {"id": "MODEL", "value_id": model_id, "value_name": model},
                          {"id": "VEHICLE_YEAR", "value_id": year, "value_name": year}]
            products.append({"id": parent_id, "domain_id": domain, "site_id": site,
                             "name": f"{brand} {model} {year}", "attributes": base_attrs})
            for version, version_id in VERSIONS:
                child_seq += 1
                products.append({
                    "id": f"{site}9{child_seq:04d}", "domain_id": domain, "site_id": site,
                    "name": f"{brand} {model} {version} {year}", "parent_id": parent_id,
                    "attributes": base_attrs + [{"id": "SHORT_VERSION", "value_id": version_id,
                                                 "value_name": version}]})
    return products


def _category_rule(category_id, required=True, notes="ENABLED", restrictions="ENABLED",
                   universal="DISABLED"):
    return {"id": category_id, "required": required, "note_status": notes,
            "restrictions_status": restrictions, "universal_status": universal}


def item(item_id, category_id, domain_id, seller=SELLER, site="MLA", title=None, **extra):
    return {"id": item_id, "site_id": site, "title": title or f"Repuesto {item_id}",
            "seller_id": seller, "category_id": category_id, "domain_id": domain_id,
            "status": "active", "price": 1000.0, "currency_id": "ARS" if site == "MLA" else "BRL",
            **extra}


def add_domain(bundle, domain_id, name, category_id, category_name=None, site="MLA"):
    """Adds a domain and one category of it to the bundle."""
    bundle["domains"].append({"id": domain_id, "site_id": site, "name": name})
    bundle["categories"].append({"id": category_id, "site_id": site, "name": category_name or name,
                                 "domain_id": domain_id})


def base_bundle():
    vehicle_attrs = [{"id": "BRAND", "name": "Marca"}, {"id": "MODEL", "name": "Modelo"},
                     {"id": "VEHICLE_YEAR", "name": "Año"}, {"id": "SHORT_VERSION", "name": "Versión"}]
    return {
        "currencies": [
            {"id": "ARS", "description": "Peso argentino", "symbol": "$", "decimal_places": 2},
            {"id": "BRL", "description": "Real", "symbol": "R$", "decimal_places": 2}],
        "sites": [{"id": "MLA", "name": "Argentina", "default_currency_id": "ARS", "language": "es"},
                  {"id": "MLB", "name": "Brasil", "default_currency_id": "BRL", "language": "pt"}],
        "users": [{"id": SELLER, "nickname": "TALLER_SUR", "site_id": "MLA", "access_tokens": [TOKENS[SELLER]]},
                  {"id": OTHER_SELLER, "nickname": "OTRO_VENDEDOR", "site_id": "MLA",
                   "access_tokens": [TOKENS[OTHER_SELLER]]},
                  {"id": MLB_SELLER, "nickname": "AUTOPECAS", "site_id": "MLB",
                   "access_tokens": [TOKENS[MLB_SELLER]]}],
        "applications": [{"client_id": "5501", "client_secret": "s3cret", "owner_id": SELLER,
                          "redirect_uri": "https://example.org/cb"}],
        "domains": [
            {"id": "MLA-CARS_AND_VANS", "site_id": "MLA", "name": "Autos y camionetas", "attributes": vehicle_attrs},
            {"id": "MLA-BRAKE_PADS", "site_id": "MLA", "name": "Pastillas de freno"},
            {"id": "MLA-CAR_FLOOR_MATS", "site_id": "MLA", "name": "Alfombras para autos"},
            {"id": "MLA-SPARK_PLUGS", "site_id": "MLA", "name": "Bujías"},
            {"id": "MLB-CARS_AND_VANS", "site_id": "MLB", "name": "Carros e caminhonetes",
             "attributes": vehicle_attrs},
            {"id": "MLB-BRAKE_PADS", "site_id": "MLB", "name": "Pastilhas de freio"}],
        "categories": [
            {"id": "MLA1747", "site_id": "MLA", "name": "Pastillas de freno", "domain_id": "MLA-BRAKE_PADS"},
            {"id": "MLA8533", "site_id": "MLA", "name": "Alfombras", "domain_id": "MLA-CAR_FLOOR_MATS"},
            {"id": "MLA6520", "site_id": "MLA", "name": "Bujías", "domain_id": "MLA-SPARK_PLUGS"},
            {"id": "MLB2201", "site_id": "MLB", "name": "Pastilhas de freio", "domain_id": "MLB-BRAKE_PADS"}],
        "domain_compatibilities": [
            {"domain_id": "MLA-CARS_AND_VANS", "main": True, "compatibilities": []},
            {"domain_id": "MLA-BRAKE_PADS", "main": False, "compatibilities": [
                {"compatible_domain_id": "MLA-CARS_AND_VANS", "type": "EXTENSION", "required": True,
                 "restrictions": [], "categories": [_category_rule("MLA1747")]}]},
            {"domain_id": "MLA-CAR_FLOOR_MATS", "main": False, "compatibilities": [
                {"compatible_domain_id": "MLA-CARS_AND_VANS", "type": "EXTENSION", "required": False,
                 "restrictions": [], "categories": [_category_rule(
                     "MLA8533", required=False, notes="DISABLED", restrictions="DISABLED",
                     universal="ENABLED")]}]},
            {"domain_id": "MLA-SPARK_PLUGS", "main": False, "compatibilities": [
                {"compatible_domain_id": "MLA-CARS_AND_VANS", "type": "EXTENSION", "required": True,
                 "restrictions": [], "categories": [_category_rule(
                     "MLA6520", notes="DISABLED", restrictions="DISABLED")]}]},
            {"domain_id": "MLB-BRAKE_PADS", "main": False, "compatibilities": [
                {"compatible_domain_id": "MLB-CARS_AND_VANS", "type": "EXTENSION", "required": True,
                 "restrictions": [], "categories": [_category_rule("MLB2201")]}]}],
        "restriction_values": [
            {"main_domain_id": "MLA-CARS_AND_VANS", "secondary_domain_id": "MLA-BRAKE_PADS",
             "attributes_values": [{"attribute_id": "POSITION", "values": POSITION_VALUES}]}],
        "products": vehicle_products() + vehicle_products("MLB", "MLB-CARS_AND_VANS")[:6],
        "items": [
            item("MLA100", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas de freno delanteras Gol"),
            item("MLA101", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas de freno traseras Hilux"),
            item("MLA102", "MLA8533", "MLA-CAR_FLOOR_MATS", title="Alfombras de goma universales"),
            item("MLA103", "MLA6520", "MLA-SPARK_PLUGS", title="Kit bujías NGK Corolla"),
            item("MLA200", "MLA1747", "MLA-BRAKE_PADS", seller=OTHER_SELLER, title="Pastillas Ford Ranger"),
            item("MLB300", "MLB2201", "MLB-BRAKE_PADS", seller=MLB_SELLER, site="MLB",
                 title="Pastilhas de freio dianteiras Gol")],
    }
