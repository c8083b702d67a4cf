"""The fitment tests' catalog: tests.bundles' vehicles and items, plus listings that fit the
Volkswagen Gol 2010 (MLA90001 1.6 Trendline, MLA90002 2.0 Highline) in each way a listing can fit."""
from tests.bundles import SELLER, TOKENS, add_domain, base_bundle, item

GOL_2010 = ("MLA90001", "MLA90002")
GOL_TRENDLINE = ("MLA90001", "MLA90005", "MLA90009")  # the 1.6 Trendline of 2010, 2015, 2020
HILUX_2010 = "MLA90013"
MLB_GOL = "MLB90001"
GOL_2010_FILTER = "BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010"
GOL_2010_ATTRIBUTES = [{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_id": "62109"},
                       {"id": "VEHICLE_YEAR", "value_id": "2010"}]
FRONT = [{"attribute_id": "POSITION", "attribute_values": [
    {"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}]
TRENDLINE_FAMILY = {"domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
                    "attributes": [{"id": "BRAND", "value_id": "60249"}, {"id": "MODEL", "value_id": "62109"},
                                   {"id": "SHORT_VERSION", "value_id": "70001"}]}


def fitment_bundle():
    """MLA100 fits both Gol 2010 by product (an approved note and a restriction on the Trendline, a
    pending note on the Highline); MLA102 is universal; MLA110 (made by family in `add_family`) fits the
    Trendline only; MLA111 (paused) and MLA112 (closed) fit the Trendline; MLA120 is of a domain with no
    compatibility with vehicles; MLB300 fits an MLB Gol."""
    bundle = base_bundle()
    add_domain(bundle, "MLA-HELMETS", "Cascos", "MLA9001")
    bundle["items"] += [
        item("MLA110", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas de freno Gol 1.6 Trendline", price=500.0),
        item("MLA111", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas de freno pausadas Gol", status="paused"),
        item("MLA112", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas de freno cerradas Gol", status="closed"),
        item("MLA120", "MLA9001", "MLA-HELMETS", title="Casco integral"),
    ]
    bundle["compatibilities"] = [
        {"item_id": "MLA100", "product_id": "MLA90001", "note": "Solo con ABS", "note_status": "APPROVED",
         "restrictions": FRONT},
        {"item_id": "MLA100", "product_id": "MLA90002", "note": "Nota en moderación", "note_status": "PENDING"},
        {"item_id": "MLA101", "product_id": HILUX_2010},
        {"item_id": "MLA102", "universal": True},
        {"item_id": "MLA111", "product_id": "MLA90001"},
        {"item_id": "MLA112", "product_id": "MLA90001"},
        {"item_id": "MLB300", "product_id": MLB_GOL},
    ]
    return bundle


def add_family(client):
    """MLA110's compatibilities, written by family through the API (stored one per product)."""
    response = client.post("/items/MLA110/compatibilities", json={"products_families": [TRENDLINE_FAMILY]},
                           headers={"Authorization": f"Bearer {TOKENS[SELLER]}"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["created_compatibilities_count"] == len(GOL_TRENDLINE)
