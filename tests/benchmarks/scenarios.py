"""The benchmarked requests and their targets (issue 6), built from the catalog's ids.

Each scenario has a probe (one request checked for its status and body before the load) and a pool
of requests sent round-robin. Targets: `ratio` is the minimum req/s as a fraction of /health's in
the same run, `flask_ratio` as a fraction of the bare Flask view's (--baseline); `p50_ms` the maximum
median latency. Issue 17 raised the targets of the item read, the list, chart search, domain
discovery and the family count, to hold on PostgreSQL too.
"""
import json
import urllib.parse
from dataclasses import dataclass, field

from tests.benchmarks.catalog import (
    BRANDS,
    CHILDREN_PER_PARENT,
    HISTORY_RECORDS,
    PART_DOMAIN,
    PER_ITEM,
    TOKEN,
    block_children,
    family,
)
from tests.catalog.heldout_data import DEMO_HELD_OUT_TITLES

SUMMARY_ITEMS = 100
FAMILIES_PER_EMPTY_ITEM = 40
WRITE_POOL = 20_000  # distinct writes: more than 10 s of POSTs at 1,000/s
CHART_QUERIES = [("Hombre", "adidas"), ("Mujer", "adidas"), ("Hombre", "Nike"), ("Mujer", "Nike"),
                 ("Hombre", "Topper"), ("Mujer", "Topper")]


@dataclass
class Scenario:
    name: str
    requests: list  # [(method, path, body)]
    check: object = None  # check(status, body) -> problem text or None
    ratio: float = None
    p50_ms: float = None
    token: str = TOKEN
    unique: bool = False  # a write pool: every entry must be sent at most once
    notes: list = field(default_factory=list)
    env: dict = None  # settings of its own: measured on a gunicorn of its own
    prepare: object = None  # prepare(port) -> requests, for pools that need the server's answers
    growth: float = None  # the largest p50 ratio allowed from --products to 10 x (default: run.GROWTH_TARGET)
    flask_ratio: float = None  # minimum req/s as a fraction of the bare Flask view's (run --baseline)

    def target_text(self):
        parts = []
        if self.ratio:
            parts.append(f">= {self.ratio:g} x health")
        if self.flask_ratio:
            parts.append(f">= {self.flask_ratio:g} x flask")
        if self.p50_ms:
            parts.append(f"p50 <= {self.p50_ms:g} ms")
        return ", ".join(parts) or "-"


def _expect(status=200, test=None, what=""):
    def check(code, body):
        if code != status:
            return f"answered {code}: {body[:300]}"
        if test is not None and not test(json.loads(body)):
            return f"unexpected body ({what}): {body[:300]}"
        return None
    return check


def health():
    return Scenario("GET /health", [("GET", "/health", None)], _expect(), token="")


def item_read(catalog):
    ids = catalog.compatible_items[:500] + catalog.empty_items[:500]
    return Scenario("GET /items/{id}", [("GET", f"/items/{i}", None) for i in ids],
                    _expect(test=lambda b: b["id"].startswith("MLA")), flask_ratio=0.5)


def compat_list(catalog):
    ids = catalog.compatible_items[:1000]
    return Scenario(f"GET /items/{{id}}/compatibilities?extended=true ({PER_ITEM})",
                    [("GET", f"/items/{i}/compatibilities?extended=true", None) for i in ids],
                    _expect(test=lambda b: len(b["products"]) == PER_ITEM, what=f"{PER_ITEM} products"),
                    ratio=0.25, p50_ms=3)


def family_post(catalog, history=True):
    """Distinct (empty item, family) pairs: each request really adds 200 compatibilities. With
    history off (HISTORY_ENABLED=false) on the other half of the empty items: what the 200 change
    records cost (target: with history p50 <= 1.2 x without). Each runs on a fresh gunicorn of its
    own, one right after the other, so that neither inherits the other scenarios' writes or drift."""
    empty = catalog.empty_items[0 if history else 1::2]
    # Family-major order: one item's requests are spread over the run, not back to back.
    requests = [("POST", f"/items/{item}/compatibilities",
                 {"products_families": [{**family((n * 7 + k) % catalog.blocks), "creation_source": "DEFAULT"}]})
                for k in range(min(FAMILIES_PER_EMPTY_ITEM, catalog.blocks)) for n, item in enumerate(empty)]
    requests = requests[:WRITE_POOL]
    return Scenario(f"POST /items/{{id}}/compatibilities ({PER_ITEM} by family{'' if history else ', history off'})",
                    requests,
                    _expect(test=lambda b: b["created_compatibilities_count"] == PER_ITEM, what="200 created"),
                    p50_ms=50, unique=True, env={"HISTORY_ENABLED": "true" if history else "false"})


def history_page(catalog):
    """H1: pages of 50 of an item with HISTORY_RECORDS change records (the first 20 pages)."""
    item = catalog.history_item
    return Scenario(f"GET /items/{{id}}/compatibilities/history (50 of {HISTORY_RECORDS + PER_ITEM:,})",
                    [("GET", f"/items/{item}/compatibilities/history?limit=50&offset={50 * k}", None)
                     for k in range(20)],
                    _expect(test=lambda b: len(b["results"]) == 50
                            and b["paging"]["total"] == HISTORY_RECORDS + PER_ITEM,  # + its import's CREATEs
                            what=f"50 of {HISTORY_RECORDS + PER_ITEM}"), p50_ms=10)


def list_not_modified(catalog):
    """H2: the 200-entry list asked with the ETag it has: 304 before the list is read."""
    paths = [f"/items/{i}/compatibilities?extended=true" for i in catalog.compatible_items[:200]]

    def prepare(port, request):
        requests = []
        for path in paths:
            status, _, headers = request(port, "GET", path, token=TOKEN, with_headers=True)
            requests.append(("GET", path, None, {"If-None-Match": headers["ETag"]}))
        return requests

    return Scenario("GET /items/{id}/compatibilities with If-None-Match (304)", [],
                    lambda code, body: None if code == 304 else f"answered {code}: {body[:300]}",
                    ratio=0.5, prepare=prepare)


def family_count(catalog):
    blocks = range(0, catalog.blocks, max(1, catalog.blocks // 1000))
    return Scenario("POST count_family_products (BRAND+MODEL)",
                    [("POST", "/catalog_compatibilities/products_search/count_family_products", family(b))
                     for b in blocks],
                    _expect(test=lambda b: b["count"] == PER_ITEM, what="count 200"), p50_ms=3)


def summary(catalog):
    ids = catalog.compatible_items
    bodies = [{"domain_id": PART_DOMAIN, "items": [ids[(s * 37 + k) % len(ids)] for k in range(SUMMARY_ITEMS)]}
              for s in range(50)]
    return Scenario(f"POST /items/compatibilities_summary ({SUMMARY_ITEMS} items)",
                    [("POST", "/items/compatibilities_summary", b) for b in bodies],
                    _expect(test=lambda b: len(b) == min(SUMMARY_ITEMS, len(ids))
                            and b[0]["compatibilities_count"] == PER_ITEM, what="100 records of 200"),
                    p50_ms=30)


def chart_search():
    bodies = [{"domain_id": "SNEAKERS", "site_id": "MLA", "seller_id": 1001,
               "attributes": [{"id": "GENDER", "values": [{"name": gender}]},
                              {"id": "BRAND", "values": [{"name": brand}]}]} for gender, brand in CHART_QUERIES]
    return Scenario("POST /catalog/charts/search", [("POST", "/catalog/charts/search", b) for b in bodies],
                    _expect(test=lambda b: "charts" in b), ratio=0.45)


def domain_discovery():
    titles = [h for h in DEMO_HELD_OUT_TITLES if h["site_id"] == "MLA"][:100]
    paths = [f"/sites/MLA/domain_discovery/search?limit=3&q={urllib.parse.quote(h['title'])}" for h in titles]
    return Scenario("GET /sites/MLA/domain_discovery/search", [("GET", p, None) for p in paths],
                    _expect(test=lambda b: isinstance(b, list)), ratio=0.45, token="")


def _fitted_blocks(catalog, count=1000):
    """Blocks whose products some item fits (items 0 .. full_items - 1 fit block n % blocks)."""
    return range(0, min(catalog.blocks, catalog.full_items), max(1, min(catalog.blocks, catalog.full_items) // count))


def _fits_everything(body):
    return body["results"] and all(r["compatibility"]["status"] == "COMPATIBLE" for r in body["results"])


def fitment_compatible_with(catalog):
    """B1: the first page of the parts that fit one vehicle (a child product)."""
    paths = [f"/sites/MLA/search?compatible_with={block_children(b)[b % PER_ITEM]}" for b in _fitted_blocks(catalog)]
    return Scenario("fitment: GET /sites/MLA/search?compatible_with (first page)",
                    [("GET", p, None) for p in paths],
                    _expect(test=_fits_everything, what="fitting items"), p50_ms=15, token="")


def fitment_filter(catalog):
    """B2: brand + model + year, the 10 versions of one model year."""
    paths = [f"/sites/MLA/search?compatibility_filter=BRAND:BB{b % len(BRANDS)};MODEL:BM{b};"
             f"VEHICLE_YEAR:{2000 + b % (PER_ITEM // CHILDREN_PER_PARENT)}" for b in _fitted_blocks(catalog)]
    return Scenario("fitment: GET /sites/MLA/search?compatibility_filter (brand+model+year)",
                    [("GET", p, None) for p in paths],
                    _expect(test=_fits_everything, what="fitting items"), p50_ms=25, token="")


def fitment_check(catalog):
    """B3 by product id: item n fits the products of block n % blocks."""
    items = catalog.compatible_items
    requests = [("POST", f"/items/{items[n]}/check_compatibility",
                 {"product_id": block_children(n % catalog.blocks)[n % PER_ITEM]})
                for n in range(0, catalog.full_items, max(1, catalog.full_items // 1000))]
    return Scenario("fitment: POST /items/{id}/check_compatibility (product)", requests,
                    _expect(test=lambda b: b["compatibility_status"] == "COMPATIBLE", what="COMPATIBLE"),
                    ratio=0.4, token="")


def all_scenarios(catalog):
    return [health(), item_read(catalog), compat_list(catalog), family_post(catalog), family_count(catalog),
            summary(catalog), chart_search(), domain_discovery(), history_page(catalog), list_not_modified(catalog),
            *finder_scenarios(catalog), fitment_compatible_with(catalog), fitment_filter(catalog),
            fitment_check(catalog),
            family_post(catalog, history=False)]


def growth_scenarios(catalog):
    return [health(), compat_list(catalog), family_count(catalog), *finder_scenarios(catalog)]


def finder_scenarios(catalog):
    from tests.benchmarks.finder_scenarios import finder_scenarios as build

    return build(catalog, Scenario, _expect)

