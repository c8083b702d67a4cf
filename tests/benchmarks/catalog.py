"""The benchmark's synthetic catalog, built through the project's bundle importer.

The demo bundle is loaded first (sites, users and their tokens, the vehicle and part domains with their
rules, size charts, technical sheets, predictor terms), then a synthetic scale-up of the demo's
MLA-CARS_AND_VANS and MLA-BRAKE_PADS:

- vehicle products in blocks of 220 (one model each): 20 parents (a model year each) of 10 child
  versions, so the family BRAND + MODEL selects exactly 200 child products at every scale;
- brake-pad items of seller 1001; the first `compatibilities // 200` items are compatible with the 200
  child products of one block (every 10th with a note, every 20th with a POSITION restriction); the
  others have none and receive the POST-by-family load.
"""
import itertools
import time

from app.data.demo import DEMO_TOKENS, build_demo_bundle
from app.services.bundle import import_bundle

VEHICLE_DOMAIN, PART_DOMAIN, PART_CATEGORY = "MLA-CARS_AND_VANS", "MLA-BRAKE_PADS", "MLA1747"
SELLER = 1001
TOKEN = DEMO_TOKENS[SELLER]
BLOCK, CHILDREN_PER_PARENT = 220, 10
PER_ITEM = 200
PRODUCT_BASE, ITEM_BASE = 7_000_000_000, 8_000_000_000
CHUNK = 100_000  # compatibilities per import: one importer call per chunk bounds its memory
HISTORY_RECORDS = 10_000  # change records of one item, restored through the bundle (H1's page target)
HISTORY_FIRST_ID = 50_000_000  # past the records the import itself writes
BRANDS = ["Volkswagen", "Chevrolet", "Ford", "Fiat", "Renault", "Peugeot", "Toyota", "Honda", "Citroën",
          "Nissan", "Hyundai", "Kia", "Jeep", "Suzuki", "Mitsubishi", "Chery", "Audi", "BMW", "Dodge", "Ram"]
PAD_BRANDS = ["Frasle", "Cobreq", "Bosch", "Ferodo", "Jurid", "TRW", "Brembo", "Textar"]


def product_id(n):
    return f"MLA{PRODUCT_BASE + n}"


def item_id(n):
    return f"MLA{ITEM_BASE + n}"


def family(block):
    """The BRAND + MODEL family of a block: its 200 child products."""
    return {"domain_id": VEHICLE_DOMAIN,
            "attributes": [{"id": "BRAND", "value_id": f"BB{block % len(BRANDS)}"},
                           {"id": "MODEL", "value_id": f"BM{block}"}]}


def products(count, start=0):
    """Products `start` to `count` - 1 (`start` at a block's first product)."""
    rows, parent = [], None
    for n in range(start, count):
        block, j = divmod(n, BLOCK)
        year, version = divmod(j, CHILDREN_PER_PARENT + 1)
        brand = BRANDS[block % len(BRANDS)]
        attributes = [{"id": "BRAND", "value_id": f"BB{block % len(BRANDS)}", "value_name": brand},
                      {"id": "MODEL", "value_id": f"BM{block}", "value_name": f"Modelo {block}"},
                      {"id": "VEHICLE_YEAR", "value_id": str(2000 + year), "value_name": str(2000 + year)},
                      {"id": "SHORT_VERSION", "value_id": f"BV{version}", "value_name": f"1.{version} {brand}"},
                      {"id": "ENGINE", "value_id": f"BE{version % 4}", "value_name": f"Motor 1.{version % 4}"}]
        row = {"id": product_id(n), "domain_id": VEHICLE_DOMAIN, "site_id": "MLA", "attributes": attributes,
               "name": f"{brand} Modelo {block} 1.{version} {2000 + year}"}
        if version == 0:
            parent = row["id"]
        else:
            row["parent_id"] = parent
        rows.append(row)
    return rows


def items(count, blocks):
    return [{"id": item_id(n), "site_id": "MLA", "seller_id": SELLER, "category_id": PART_CATEGORY,
             "domain_id": PART_DOMAIN, "status": "active", "price": 10_000.0 + n % 5000, "currency_id": "ARS",
             "title": f"Pastillas de freno {PAD_BRANDS[n % len(PAD_BRANDS)]} "
                      f"{BRANDS[(n % blocks) % len(BRANDS)]} Modelo {n % blocks} delanteras"}
            for n in range(count)]


def block_children(block):
    start = block * BLOCK
    return [product_id(start + j) for j in range(BLOCK) if j % (CHILDREN_PER_PARENT + 1)]


def compatibilities(full_items, blocks, start=0):
    for n in range(start, full_items):
        for k, pid in enumerate(block_children(n % blocks)):
            row = {"item_id": item_id(n), "product_id": pid, "source": "SELLER", "creation_source": "DEFAULT"}
            if k % 10 == 0:
                row["note"] = "Verificar medida antes de comprar"
            if k % 20 == 0:
                row["restrictions"] = [{"attribute_id": "POSITION", "attribute_values": [
                    {"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}]
            yield row


def history_records(item, count):
    """UPDATEs of a note, as a long-lived item's history: a restored `compatibility_history`."""
    return [{"id": HISTORY_FIRST_ID + n, "item_id": item, "date_created": f"2026-01-01T00:00:{n % 60:02d}.{n:06d}Z",
             "action": "UPDATE", "compatibility_id": f"00000000-0000-4000-8000-{n:012d}",
             "product_id": product_id(n % 1000 * 11 + 1), "source": "SELLER", "creation_source": "DEFAULT",
             "changes": {"note": {"from": f"Nota {n}", "to": f"Nota {n + 1}"}},
             "actor": {"user_id": SELLER, "client_id": None, "kind": "API"}, "request_id": f"bench-{n}"}
            for n in range(count)]


class Catalog:
    """What the load scenarios need to know about the built catalog."""

    def __init__(self, n_products, n_items, n_compatibilities):
        self.blocks = n_products // BLOCK
        if self.blocks < 2:
            raise SystemExit(f"--products must be at least {2 * BLOCK}")
        self.n_products, self.n_items = self.blocks * BLOCK, n_items
        self.full_items = min(n_compatibilities // PER_ITEM, n_items - 1)
        self.n_compatibilities = self.full_items * PER_ITEM
        self.timings = {}

    @property
    def empty_items(self):
        return [item_id(n) for n in range(self.full_items, self.n_items)]

    @property
    def history_item(self):
        return item_id(0)

    @property
    def compatible_items(self):
        return [item_id(n) for n in range(self.full_items)]

    def build(self, log=print):
        """Imports everything (the current app context's database must be empty); times each step."""
        self._timed("demo bundle", build_demo_bundle, log)
        self._timed(f"{self.n_products:,} products", lambda: {"products": products(self.n_products)}, log)
        self._timed(f"{self.n_items:,} items", lambda: {"items": items(self.n_items, self.blocks)}, log)
        # Each chunk is made before its import is timed, as the products' bundle is: the import is
        # measured, not the making of a million dicts (0.5 s).
        rows, done, seconds = compatibilities(self.full_items, self.blocks), 0, 0.0
        while chunk := list(itertools.islice(rows, CHUNK)):
            started = time.perf_counter()
            import_bundle({"compatibilities": chunk})
            seconds += time.perf_counter() - started
            done += len(chunk)
            log(f"  compatibilities: {done:,} imported, {seconds:.1f} s")
        self.timings[f"{self.n_compatibilities:,} compatibilities"] = seconds
        log(f"import {self.n_compatibilities:,} compatibilities: {seconds:.1f} s "
            f"(chunks of {CHUNK:,}, one import each, with their IMPORT change records)")
        self._timed(f"{HISTORY_RECORDS:,} change records of one item",
                    lambda: {"compatibility_history": history_records(self.history_item, HISTORY_RECORDS)}, log)

    def _timed(self, label, make, log):
        bundle = make()
        started = time.perf_counter()
        import_bundle(bundle)
        self.timings[label] = seconds = time.perf_counter() - started
        log(f"import {label}: {seconds:.1f} s")
