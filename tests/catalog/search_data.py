"""Shared data and helpers of the search tests: items with varied titles, prices, categories, statuses."""
import json
import re

from tests.bundles import MLB_SELLER, OTHER_SELLER, base_bundle, item

# Base bundle MLA items: MLA100 "Pastillas de freno delanteras Gol", MLA101 "Pastillas de freno traseras
# Hilux", MLA102 "Alfombras de goma universales", MLA103 "Kit bujías NGK Corolla", MLA200 "Pastillas Ford
# Ranger" (all price 1000); MLB300 "Pastilhas de freio dianteiras Gol".
EXTRA_ITEMS = [
    item("MLA110", "MLA6520", "MLA-SPARK_PLUGS", title="BUJÍAS Iridium Bosch 1.6", price=5200.0),
    item("MLA111", "MLA6520", "MLA-SPARK_PLUGS", title="Bujia suelta Champion", price=800.0),
    item("MLA112", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas freno cerámicas Gol Trend", price=3100.5),
    item("MLA113", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas freno pausadas", price=10.0, status="paused"),
    item("MLA114", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas freno cerradas", price=20.0, status="closed"),
    item("MLA115", "MLA8533", "MLA-CAR_FLOOR_MATS", title="Alfombra Ñandú de goma", price=None,
         seller=OTHER_SELLER),
    item("MLB310", "MLB2201", "MLB-BRAKE_PADS", seller=MLB_SELLER, site="MLB",
         title="Pastilhas freio Bujías", price=90.0),
]


def search_bundle():
    bundle = base_bundle()
    bundle["items"] += EXTRA_ITEMS
    return bundle


def search(client, site="MLA", **params):
    return client.get(f"/sites/{site}/search", query_string=params)


def ids(response):
    body = response.get_json()
    assert response.status_code == 200, body
    return [r["id"] for r in body["results"]]


def parse_jsonp(response):
    match = re.fullmatch(r"/\*\*/cb\((.*)\);", response.get_data(as_text=True), re.S)
    assert match
    return json.loads(match.group(1))
