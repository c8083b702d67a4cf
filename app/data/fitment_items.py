"""Listings that fit the README's example vehicle, the Volkswagen Gol 2010 (BRAND 60249, MODEL 62109),
in every way a buyer's search tells apart (extensions.md B): some fit all five of its versions
(COMPATIBLE), some only a few (UNDETERMINED: the buyer must say more), one is paused (never shown);
the demo's universal floor mats and wiper blades fit it too.

Made after every other listing, with their own random generators, so that adding them changes no
other id, title or compatibility of the demo.
"""
from app.data.activity import _restriction
from app.data.part_items import PartListingFactory
from app.data.parts import categories_of
from app.data.util import stable_uuid

GOL = ("MLA-CARS_AND_VANS", "Volkswagen", "Gol")
EXAMPLE_YEAR = 2010
# (domain, part brand, title, status, which Gol versions: displacement or None, years or None, position)
LISTINGS = [
    ("AIR_FILTERS", "Mann", "Filtro de aire Mann Volkswagen Gol 2008-2012", "active", None, range(2008, 2013),
     None),
    ("BRAKE_PADS", "Bosch", "Pastillas de freno delanteras Bosch Volkswagen Gol 1.6", "active", "1.6", None, "FRONT"),
    ("TIMING_BELTS", "Gates", "Kit de distribución Gates Volkswagen Gol 1.4", "active", "1.4", None, None),
    ("SPARK_PLUGS", "NGK", "Kit 4 bujías NGK Iridium Volkswagen Gol 1.6 2010", "active", "1.6", range(2010, 2011),
     None),
    ("SHOCK_ABSORBERS", "Corven", "Amortiguadores delanteros Corven Volkswagen Gol", "paused", None, None, "FRONT"),
]
# The moderated and pending notes a buyer does or does not see, on the 2010 versions.
NOTES = {"AIR_FILTERS": {"1.6 Power": ("Solo motor 8 válvulas", "APPROVED")},
         "BRAKE_PADS": {"1.6 Power": ("Verificar el diámetro del disco antes de comprar", "CHECKED"),
                        "1.6 Comfortline": ("Solo versiones con ABS", "PENDING")}}


def fitment_listings(rng, index, item_ids):
    factory = PartListingFactory(rng, index, item_ids)
    listings = []
    for domain, brand, title, status, displacement, years, position in LISTINGS:
        category = next(c for c in categories_of(domain, "MLA") if c.vehicle == "CARS_AND_VANS" and not c.universal)
        listing = factory.make(1002, "MLA", domain, category, title=title, part_brand=brand, status=status,
                               position=position)
        listing.fitment = [v for v in index.of_model(*GOL, displacement) if years is None or v.year in years]
        listings.append(listing)
    return listings


def fitment_compatibilities(rng, listings):
    rows = []
    for listing in listings:
        notes = NOTES.get(listing.domain, {}) if listing.category.notes else {}
        for vehicle in listing.fitment:
            row = {"id": stable_uuid(rng), "item_id": listing.item["id"], "product_id": vehicle.id,
                   "source": "SELLER", "creation_source": "DEFAULT"}
            if vehicle.year == EXAMPLE_YEAR and vehicle.version in notes:
                row["note"], row["note_status"] = notes[vehicle.version]
            if listing.position and listing.category.restrictions:
                row["restrictions"] = _restriction([[listing.position]], "MLA")
            rows.append(row)
    return rows
