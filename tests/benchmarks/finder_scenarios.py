"""The vehicle finder's benchmarked requests (issue 12), over the synthetic vehicle blocks of
catalog.py: a block is one model of one brand with 20 years of 10 child versions, 4 engines.

- top values of BRAND with nothing known (the widest step of the cascade);
- the cascade itself, one row per number of known attributes: MODEL given BRAND, VEHICLE_YEAR
  given BRAND+MODEL, SHORT_VERSION given those and the year, ENGINE given all four;
- product search: the first page of 50 of a model's 200 vehicles (BRAND, MODEL and every year
  known), sorted by SHORT_VERSION; and the page at offset 10,000 of one ENGINE's vehicles
  (tens of thousands at any scale), by id.
"""
from tests.benchmarks.catalog import BLOCK, BRANDS, CHILDREN_PER_PARENT, VEHICLE_DOMAIN

GROWTH = 1.5
YEARS = [str(2000 + y) for y in range(BLOCK // (CHILDREN_PER_PARENT + 1))]
TOP = f"/catalog_domains/{VEHICLE_DOMAIN}/attributes/{{}}/top_values"
SEARCH = "/catalog_compatibilities/products_search/chunks"
CASCADE = ("BRAND", "MODEL", "VEHICLE_YEAR", "SHORT_VERSION", "ENGINE")


def _known(block, depth):
    """The first `depth` attributes of the cascade, as a seller who picked them in block `block`."""
    values = {"BRAND": f"BB{block % len(BRANDS)}", "MODEL": f"BM{block}", "VEHICLE_YEAR": YEARS[block % len(YEARS)],
              "SHORT_VERSION": f"BV{1 + block % CHILDREN_PER_PARENT}"}
    return [{"id": a, "value_id": values[a]} for a in CASCADE[:depth]]


def finder_scenarios(catalog, Scenario, expect):  # noqa: N803 (the class, passed to avoid an import cycle)
    blocks = range(0, catalog.blocks, max(1, catalog.blocks // 500))
    non_empty = expect(test=lambda b: len(b) > 0, what="values")
    rows = [Scenario("POST top_values BRAND (no known attribute)", [("POST", TOP.format("BRAND"), {})],
                     expect(test=lambda b: len(b) >= len(BRANDS), what="every brand"), p50_ms=10, growth=GROWTH)]
    for depth in range(1, 5):
        target = CASCADE[depth]
        rows.append(Scenario(f"POST top_values {target} ({depth} known)",
                             [("POST", TOP.format(target), {"known_attributes": _known(b, depth)}) for b in blocks],
                             non_empty, p50_ms=5, growth=GROWTH))
    first_page = [{"domain_id": VEHICLE_DOMAIN, "site_id": "MLA", "limit": 50,
                   "known_attributes": [{"id": "BRAND", "value_ids": [f"BB{b % len(BRANDS)}"]},
                                        {"id": "MODEL", "value_ids": [f"BM{b}"]},
                                        {"id": "VEHICLE_YEAR", "value_ids": YEARS}],
                   "sort": {"attribute_id": "SHORT_VERSION", "order": "ASC"}} for b in blocks]
    rows.append(Scenario("POST products_search/chunks (3 known, sorted, first 50)",
                         [("POST", SEARCH, body) for body in first_page],
                         expect(test=lambda b: len(b["results"]) == 50 and b["paging"]["total"] == 200,
                                what="50 of 200"), p50_ms=10, growth=GROWTH))
    deep = [{"domain_id": VEHICLE_DOMAIN, "site_id": "MLA", "limit": 50, "offset": 10_000,
             "known_attributes": [{"id": "ENGINE", "value_ids": [f"BE{e}"]}]} for e in range(4)]
    rows.append(Scenario("POST products_search/chunks (offset 10,000)", [("POST", SEARCH, body) for body in deep],
                         expect(test=lambda b: len(b["results"]) == 50, what="a full page"),
                         p50_ms=30, growth=GROWTH))
    return rows
