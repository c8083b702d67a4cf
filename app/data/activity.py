"""What happened to the part listings: compatibilities, suggestions, exceptions, orders and claims."""
import datetime as dt

from app.data.parts import PART_DOMAINS, position_value
from app.data.sites import VEHICLE_ATTRIBUTE_NAMES, language
from app.data.users import BUYERS_BY_SITE
from app.data.util import DEMO_NOW, iso, moment_between, stable_uuid

NOTES = {"es": ["Solo versiones con ABS", "Verificar el diámetro del disco antes de comprar",
                "No apto para versiones con frenos traseros a tambor", "Solo para motor de 8 válvulas",
                "Vehículos fabricados desde marzo", "Requiere adaptar el conector"],
         "pt": ["Somente versões com ABS", "Verificar o diâmetro do disco antes da compra",
                "Não serve para versões com freio traseiro a tambor", "Somente motor 8 válvulas",
                "Veículos fabricados a partir de março"]}
ORDER_ID_BASE, CLAIM_ID_BASE = 2000004512, 5003001


def _restriction(groups, site_id):
    return [{"attribute_id": "POSITION", "attribute_values": [
        {"values": [position_value(key, site_id) for key in group]} for group in groups]}]


def _restriction_groups(rng, listing):
    """POSITION alternatives for one compatibility, from the values endpoint 7 offers for the pair."""
    allowed = PART_DOMAINS[listing.domain].get("positions", ())
    if listing.domain == "SHOCK_ABSORBERS" and rng.random() < 0.3:
        return [[listing.position, "LEFT"], [listing.position, "RIGHT"]]
    return [[listing.position]] if listing.position in allowed else []


def compatibilities(rng, listings):
    rows = []
    for listing in listings:
        item_id, site_id = listing.item["id"], listing.item["site_id"]
        if listing.universal:
            rows.append({"id": stable_uuid(rng), "item_id": item_id, "universal": True, "source": "SELLER",
                         "creation_source": "DEFAULT"})
            continue
        category = listing.category
        noted = set()
        if category.notes and listing.fitment and rng.random() < 0.35:
            noted = {v.id for v in rng.sample(listing.fitment, min(len(listing.fitment), rng.randint(1, 5)))}
        restricted = category.restrictions and listing.position and rng.random() < 0.85
        catalog_share = int(len(listing.fitment) * 0.7) if listing.catalog_source else 0
        for n, vehicle in enumerate(listing.fitment):
            row = {"id": stable_uuid(rng), "item_id": item_id, "product_id": vehicle.id}
            if n < catalog_share:
                row.update(source="CATALOGO", creation_source="DEFAULT")
            else:
                creation = "DEFAULT"
                if vehicle.year >= 2023 and rng.random() < 0.5:
                    creation = "NEW_VEHICLES"
                elif rng.random() < 0.15:
                    creation = "ITEM_SUGGESTIONS"
                row.update(source="SELLER", creation_source=creation)
            if vehicle.id in noted:
                row.update(note=rng.choice(NOTES[language(site_id)]),
                           note_status=rng.choices(["PENDING", "APPROVED", "CHECKED"], [4, 4, 2])[0])
            if restricted and rng.random() < 0.9:
                groups = _restriction_groups(rng, listing)
                if groups:
                    row["restrictions"] = _restriction(groups, site_id)
            rows.append(row)
    return rows


def suggestions(rng, listings, index):
    """Vehicles the marketplace proposes: same brand and engine, not yet compatible."""
    rows = []
    candidates = [listing for listing in listings if not listing.universal and listing.item["status"] == "active"
                  and (listing.fitment or listing.category.required) and not listing.exception]
    for listing in rng.sample(candidates, 20):
        have = {v.id for v in listing.fitment}
        domain_id = f"{listing.item['site_id']}-{listing.category.vehicle}"
        sample = listing.fitment[0] if listing.fitment else None
        pool = [v for (d, brand, _), vehicles in index.by_model.items() if d == domain_id
                and (sample is None or brand == sample.brand)
                for v in vehicles if v.id not in have
                and (sample is None or v.displacement == sample.displacement)]
        for vehicle in rng.sample(pool, min(len(pool), rng.randint(2, 10))):
            rows.append({"item_id": listing.item["id"], "product_id": vehicle.id})
    return rows


def exceptions(listings):
    return [{"item_id": listing.item["id"], "comment": listing.exception} for listing in listings if listing.exception]


def _label_values(vehicle):
    names = VEHICLE_ATTRIBUTE_NAMES[language(vehicle.site_id)]
    return [{"label": names[a["id"]], "value_name": a["value_name"],
             "values": [{"attribute_id": a["id"], "value_id": a["value_id"]}]}
            for a in vehicle.attributes if a["id"] in ("BRAND", "MODEL", "VEHICLE_YEAR", "SHORT_VERSION")]


class OrderBook:
    def __init__(self, rng):
        self.rng, self.orders, self.claims = rng, [], []
        self.next_order = ORDER_ID_BASE

    def add(self, listing, status=None, vehicle=None, claim=False, updated=False, note=None, restrictions=None):
        rng = self.rng
        created = moment_between(rng, dt.datetime(2025, 10, 1), DEMO_NOW - dt.timedelta(days=20))
        site_id = listing.item["site_id"]
        order = {"id": self.next_order, "item_id": listing.item["id"],
                 "buyer_id": rng.choice(BUYERS_BY_SITE[site_id]), "date_created": iso(created)}
        self.next_order += rng.randint(3, 90)
        if status:
            snapshot = {"compatibility_status": {"compatibility": status}, "date_created": iso(created)}
            if vehicle:
                snapshot["product_id"] = vehicle.id
                snapshot["user_selection"] = {"label_values": _label_values(vehicle)}
            if status == "NO_USER_SELECTION":
                snapshot["compatibility_status"].update(note=note or "", restrictions=restrictions or [])
            if updated:
                snapshot["date_updated"] = iso(created + dt.timedelta(days=rng.randint(1, 6), hours=rng.randint(0, 20)))
            order["snapshot"] = snapshot
        self.orders.append(order)
        if claim:
            self.claims.append({"id": CLAIM_ID_BASE + len(self.claims), "order_id": order["id"],
                                "reason": "INCOMPATIBLE_PART",
                                "date_created": iso(created + dt.timedelta(days=rng.randint(3, 15)))})
        return order


def orders_and_claims(rng, listings, index):
    """Every kind of snapshot, and claims that make one compatibility RED (3), one GREEN (1), and one
    point at a compatibility the seller has since deleted."""
    book = OrderBook(rng)

    def pick(seller, minimum=5, restricted=False):
        pool = [listing for listing in listings if listing.item["seller_id"] == seller
                and listing.item["status"] == "active" and len(listing.fitment) >= minimum
                and not listing.catalog_source and not listing.exception
                and (not restricted or (listing.category.restrictions and listing.position))
                and listing not in picked]
        listing = rng.choice(pool)
        picked.append(listing)
        return listing

    def missing_vehicle(listing):
        """A vehicle of the same model the listing is not (or no longer) compatible with."""
        have = {v.id for v in listing.fitment}
        sample = listing.fitment[0]
        pool = [v for v in index.by_model[(sample.domain_id, sample.brand, sample.model)] if v.id not in have]
        pool = pool or [v for (d, _, _), vs in index.by_model.items() if d == sample.domain_id
                        for v in vs if v.id not in have]
        return rng.choice(pool)

    picked = []
    red = pick(1001, minimum=10, restricted=True)
    red_vehicle = rng.choice(red.fitment)
    for _ in range(3):
        book.add(red, "CONFIRMED", red_vehicle, claim=True, updated=rng.random() < 0.5)
    book.add(red, "CONFIRMED", rng.choice([v for v in red.fitment if v is not red_vehicle]), updated=True)
    green = pick(1001)
    book.add(green, "CONFIRMED", rng.choice(green.fitment), claim=True)
    # The seller deleted this compatibility after the sale: the snapshot still names the vehicle.
    deleted = pick(1001)
    book.add(deleted, "CONFIRMED", missing_vehicle(deleted), claim=True, updated=True)
    incompatible = pick(1002)
    book.add(incompatible, "INCOMPATIBLE", missing_vehicle(incompatible), claim=True)
    brazil = pick(2001)
    book.add(brazil, "CONFIRMED", rng.choice(brazil.fitment), claim=True, updated=True)
    book.add(brazil, "CONFIRMED", rng.choice(brazil.fitment))
    mexico = pick(3002)
    note = rng.choice(NOTES["es"])
    restrictions = _restriction([[mexico.position]], "MLM") if mexico.position and mexico.category.restrictions else []
    book.add(mexico, "NO_USER_SELECTION", claim=True, note=note, restrictions=restrictions)
    book.add(mexico, "CONFIRMED", rng.choice(mexico.fitment), claim=True)
    quiet = pick(1001)
    book.add(quiet, "NO_USER_SELECTION", claim=False, note="", restrictions=[])
    book.add(pick(1001), claim=True)   # no snapshot was taken, yet the buyer complained
    book.add(pick(1002), claim=False)  # no snapshot, no claim
    for seller in (1001, 1001, 1002, 2001, 3002, 1001, 2001, 1002):
        listing = pick(seller)
        book.add(listing, "CONFIRMED", rng.choice(listing.fitment), claim=rng.random() < 0.5,
                 updated=rng.random() < 0.4)
    return book.orders, book.claims

