"""The demo catalog bundle, in the shape of import-format.md, generated rather than stored.

`build_demo_bundle()` returns the same document on every call (seeded generators, fixed "now", no
network); `flask --app wsgi demo` loads it. `DEMO_TOKENS` are the sellers' access tokens inside it (the
titles kept out of it, to evaluate the category predictor, are test data: tests/catalog/heldout_data.py).
"""
import random

from app.data.activity import compatibilities, exceptions, orders_and_claims, suggestions
from app.data.charts import size_charts
from app.data.fashion import fashion_catalog
from app.data.fashion_items import fashion_items
from app.data.fitment_items import fitment_compatibilities, fitment_listings
from app.data.part_items import ItemIds, VehicleIndex, part_listings
from app.data.parts import part_catalog
from app.data.sheets import technical_specs
from app.data.sites import CURRENCIES, SITES
from app.data.users import APPLICATIONS, DEMO_TOKENS, users
from app.data.util import ValueIds
from app.data.vehicles import vehicle_domains, vehicle_products

__all__ = ["DEMO_TOKENS", "build_demo_bundle"]


def _rng(section):
    # One generator per section: changing how one section is drawn leaves the others as they were.
    return random.Random(f"demo-bundle-{section}")


def build_demo_bundle() -> dict:
    value_ids = ValueIds()
    vehicle_domain_rows, vehicle_categories, main_entries = vehicle_domains()
    part_domains, part_categories, part_entries, restriction_values, part_terms = part_catalog()
    fashion_domains, fashion_categories, chart_domains, fashion_terms = fashion_catalog()
    products, vehicles = vehicle_products(value_ids)
    index = VehicleIndex(vehicles)

    item_ids = ItemIds()
    listings = part_listings(_rng("part-items"), index, item_ids)
    charts = size_charts()
    clothes = fashion_items(_rng("fashion-items"), charts, item_ids)
    orders, claims = orders_and_claims(_rng("orders"), listings, index)
    fitting = fitment_listings(_rng("fitment-items"), index, item_ids)

    return {
        "sites": SITES,
        "currencies": CURRENCIES,
        "users": users(),
        "applications": APPLICATIONS,
        "domains": vehicle_domain_rows + part_domains + fashion_domains,
        "categories": vehicle_categories + part_categories + fashion_categories,
        "domain_compatibilities": main_entries + part_entries,
        "restriction_values": restriction_values,
        "products": products,
        "items": [listing.item for listing in listings] + clothes + [listing.item for listing in fitting],
        "compatibilities": compatibilities(_rng("compatibilities"), listings)
        + fitment_compatibilities(_rng("fitment-compatibilities"), fitting),
        "suggestions": suggestions(_rng("suggestions"), listings, index),
        "exceptions": exceptions(listings),
        "orders": orders,
        "claims": claims,
        "chart_domains": chart_domains,
        "technical_specs": technical_specs(value_ids),
        "charts": charts,
        "domain_discovery": part_terms + fashion_terms,
    }
