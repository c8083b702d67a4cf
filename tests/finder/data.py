"""The finder's test catalog: a vehicle domain described fully, with uneven brands (so counts and
their order mean something), an accented brand, parents that must never be counted, and a
secondary attribute (FUEL_TYPE) that only some vehicles carry.

`expected_top_values` and `expected_search` answer from the bundle itself, in Python: what the
service must answer whatever way it counts.
"""
from collections import Counter

from tests.bundles import TOKENS, base_bundle
from tests.helpers import bearer

DOMAIN = "MLA-CARS_AND_VANS"
AUTH = bearer(TOKENS[1001])
ATTRIBUTES = [
    {"id": "BRAND", "name": "Marca", "value_type": "list", "hierarchy": "PARENT_PK", "relevance": 1},
    {"id": "MODEL", "name": "Modelo", "value_type": "list", "hierarchy": "PARENT_PK", "relevance": 1},
    {"id": "VEHICLE_YEAR", "name": "Año", "value_type": "list", "hierarchy": "PARENT_PK", "relevance": 1},
    {"id": "SHORT_VERSION", "name": "Versión", "value_type": "list", "hierarchy": "CHILD_PK", "relevance": 1},
    {"id": "FUEL_TYPE", "name": "Tipo de combustible", "hierarchy": "CHILD_PK", "relevance": 2},
    {"id": "DOORS", "name": "Puertas"},  # nothing but the defaults
]
# brand: (brand value id, {model: model value id}, years)
BRANDS = {"Volkswagen": ("60249", {"Gol": "62109", "Amarok": "62110", "Vento": "62111"}, range(2010, 2016)),
          "Citroën": ("61828", {"C3": "67052", "Berlingo": "66092"}, range(2012, 2016)),
          "Toyota": ("60297", {"Hilux": "62200"}, range(2014, 2016))}
VERSIONS = (("1.6 Trendline", "70001"), ("2.0 Highline", "70002"), ("1.4 Comfort", "70003"))
FUELS = (("Nafta", "91291"), ("Diésel", "91292"))


def products():
    rows, n = [], 0
    for brand, (brand_id, models, years) in BRANDS.items():
        for model, model_id in models.items():
            for year in years:
                parent = f"MLA7{len(rows):05d}"
                base = [{"id": "BRAND", "value_id": brand_id, "value_name": brand},
                        {"id": "MODEL", "value_id": model_id, "value_name": model},
                        {"id": "VEHICLE_YEAR", "value_id": str(year), "value_name": str(year)}]
                rows.append({"id": parent, "domain_id": DOMAIN, "name": f"{brand} {model} {year}", "attributes": base})
                for version, version_id in VERSIONS[: 1 + (year + len(model)) % 3]:
                    n += 1
                    attrs = base + [{"id": "SHORT_VERSION", "value_id": version_id, "value_name": version}]
                    if n % 4:
                        fuel, fuel_id = FUELS[n % 2]
                        attrs.append({"id": "FUEL_TYPE", "value_id": fuel_id, "value_name": fuel})
                    rows.append({"id": f"MLA9{n:05d}", "domain_id": DOMAIN, "parent_id": parent,
                                 "name": f"{brand} {model} {version} {year}", "attributes": attrs})
    return rows


def finder_bundle():
    bundle = base_bundle()
    domain = next(d for d in bundle["domains"] if d["id"] == DOMAIN)
    domain["attributes"] = [dict(a) for a in ATTRIBUTES]
    bundle["products"] = [p for p in bundle["products"] if p["domain_id"] != DOMAIN] + products()
    return bundle


def children(bundle):
    return [p for p in bundle["products"] if p["domain_id"] == DOMAIN and p.get("parent_id")]


def _value(product, attribute_id):
    return next(((a["value_id"], a["value_name"]) for a in product["attributes"] if a["id"] == attribute_id), None)


def matching(bundle, known):
    """Child products carrying, for every known attribute, one of its values."""
    def ok(p):
        return all((_value(p, k["id"]) or (None,))[0] in (k.get("value_ids") or [k.get("value_id")]) for k in known)
    return [p for p in children(bundle) if ok(p)]


def expected_top_values(bundle, attribute_id, known=(), limit=50):
    counts = Counter(_value(p, attribute_id) for p in matching(bundle, known))
    counts.pop(None, None)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))
    return [{"id": v_id, "name": name, "metric": n} for (v_id, name), n in ranked[:limit]]


def expected_search_ids(bundle, known=(), sort=None):
    found = matching(bundle, known)
    if not sort:
        return sorted(p["id"] for p in found)
    with_value = [p for p in found if _value(p, sort["attribute_id"])]
    without = sorted(p["id"] for p in found if not _value(p, sort["attribute_id"]))
    by_id = sorted(with_value, key=lambda p: p["id"])
    ordered = sorted(by_id, key=lambda p: _value(p, sort["attribute_id"])[1], reverse=sort.get("order") == "DESC")
    return [p["id"] for p in ordered] + without
