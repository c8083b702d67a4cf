"""The catalog bundle (import-format.md): `import_bundle` validates a whole bundle, then writes
it in one transaction; `export_bundle` writes the database back in the same format."""
import uuid

from app.db import db, is_postgres, write_transaction
from app.json_input import JsonInputError, loads
from app.models import (
    ALL_MODELS,
    CatalogVersion,
    Compatibility,
    CompatibilityChange,
    FinderDomain,
    FinderFacet,
    FinderPairFacet,
    Item,
    Product,
    ProductAttribute,
)
from app.services import history
from app.services.bundle import load, load_items, load_products
from app.services.bundle.bulk import collector_paused, import_cache, stored_rows_estimate
from app.services.bundle.export import export_bundle
from app.services.bundle.refs import check_references
from app.services.bundle.validate import format_path, validate_structure
from app.services.compat.item_state import refresh_items

# In dependency order: a section is written after those its records point to.
LOADERS = [
    ("currencies", load.load_currencies), ("sites", load.load_sites), ("users", load.load_users),
    ("applications", load.load_applications), ("domains", load.load_domains),
    ("categories", load.load_categories), ("domain_compatibilities", load.load_domain_compatibilities),
    ("restriction_values", load.load_restriction_values), ("products", load_products.load_products),
    ("items", load_items.load_items), ("compatibilities", load_items.load_compatibilities),
    ("suggestions", load_items.load_suggestions), ("exceptions", load_items.load_exceptions),
    ("orders", load_items.load_orders), ("claims", load_items.load_claims),
    ("chart_domains", load_items.load_chart_domains), ("technical_specs", load_items.load_technical_specs),
    ("charts", load_items.load_charts), ("domain_discovery", load_items.load_domain_discovery),
    ("compatibility_history", lambda records, ctx: history.load_history(records, ctx)),
]
BULK_RECORDS = 10_000
ANALYZE_GROWTH = 4  # a table is analysed again once an import adds a quarter of its rows
ITEM_SECTIONS = ("items", "compatibilities", "suggestions", "exceptions")
# The tables written by an import of only these sections (derived state and history included).
WRITTEN_TABLES = {
    "products": (Product, ProductAttribute, FinderDomain, FinderFacet, FinderPairFacet),
    "items": (Item,), "compatibilities": (Compatibility, CompatibilityChange, Item),
    "compatibility_history": (CompatibilityChange, Item),
}
# What the category predictor learns from (app/services/catalog/predictor.py), and the chart
# sheets that chart search keeps per worker (app/services/charts/search.py).
PREDICTOR_SECTIONS = ("domains", "categories", "items", "domain_discovery", "chart_domains", "technical_specs")

__all__ = ["BundleError", "import_bundle", "export_bundle", "read_bundle"]


class BundleError(Exception):
    """A bundle that cannot be imported; `problems` lists every one as `json.path: message`."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s) in the bundle:\n" + "\n".join(self.problems))


def read_bundle(data, max_depth):
    """The bundle in `data`, a file's bytes; BundleError with the problem at `$` when they are not
    a JSON document nested at most `max_depth` deep (app/json_input.py says what else is refused)."""
    try:
        return loads(data, max_depth)
    except JsonInputError as exc:
        raise BundleError(f"{format_path(path) or '$'}: {message}" for path, message in exc.problems) from None


def import_bundle(bundle):
    """Validate then write `bundle` in one transaction; answers {section: records written}.

    Nothing is written when any problem is found; BundleError then lists them all. The schema
    must exist: the commands that call this ensure it first (`catalog import` creates a missing one).
    """
    records = sum(len(v) for v in bundle.values() if isinstance(v, list)) if isinstance(bundle, dict) else 0
    with collector_paused(records), import_cache(records), write_transaction():
        sections, problems, failed = validate_structure(bundle)
        reference_problems, ctx = check_references(sections, failed)
        problems += reference_problems
        if problems:
            raise BundleError(problems)
        for name, loader in LOADERS:
            if sections.get(name):
                loader(sections[name], ctx)
        refreshed = _refresh_derived_state(sections)
        # Claims change the reputation the compatibility list shows, so its ETag (H2).
        history.touch_claimed_items([r["order_id"] for r in sections.get("claims") or ()])
        _mark_catalog_changed(sections)
        analysed = _analyze_after_bulk_load(sections, refreshed)
    _vacuum_after_bulk_load(sections, analysed)
    return {name: len(sections.get(name) or ()) for name, _ in LOADERS if name in sections}


def _vacuum_after_bulk_load(sections, analysed=()):
    """PostgreSQL answers the finder's index-only scans from the index alone only for pages its
    visibility map marks all-visible, which fresh rows are not until a VACUUM: the page at offset
    10,000 of a just-imported catalog read 10,050 heap rows (13.6 ms instead of 3.5). VACUUM cannot
    run inside a transaction, so only a top-level import does it; 6 s for a million products.
    A table the import's transaction already analysed (`analysed`) is not sampled again."""
    if (is_postgres() and not db.in_transaction()
            and len(sections.get("products") or ()) >= BULK_RECORDS):
        tables = ("product", "product_attribute", "finder_facet", "finder_pair_facet")
        for option, group in (("(ANALYZE) ", [t for t in tables if t not in analysed]),
                              ("", [t for t in tables if t in analysed])):
            if group:
                db.execute_sql(f"VACUUM {option}" + ", ".join(f'"{t}"' for t in group))


def _analyze_after_bulk_load(sections, refreshed_items=None):
    """PostgreSQL plans with the statistics it had before the load; a table that grew from
    empty to 500,000 rows would be scanned whole by the next IN lookup (the re-import's among
    them) until autovacuum catches up. Only the tables the import wrote (a chunk of
    compatibilities need not sample the product tables again), and only those it grew by a
    quarter or more: the sixth chunk of 100,000 compatibilities changes no plan, and sampling
    three large tables again cost 0.8 s of each chunk.

    The items of an import without an items section only had their derived state refreshed
    (`refreshed_items`, None for all): that table counts the items changed, not the records
    loaded, so a chunk of 100,000 compatibilities on 500 of 10,000 items does not sample it."""
    written_rows = sum(len(records) for records in sections.values())
    if is_postgres() and written_rows >= BULK_RECORDS:
        written = [name for name, records in sections.items() if records]
        models = ALL_MODELS
        if all(name in WRITTEN_TABLES for name in written):
            models = [m for m in ALL_MODELS if any(m in WRITTEN_TABLES[name] for name in written)]
        item_rows = written_rows if sections.get("items") or refreshed_items is None else len(refreshed_items)
        tables = [m._meta.table_name for m in models
                  if (item_rows if m is Item else written_rows) * ANALYZE_GROWTH
                  >= stored_rows_estimate(m._meta.table_name)]
        if tables:
            db.execute_sql("ANALYZE " + ", ".join(f'"{t}"' for t in tables))
        return tables
    return []


def _mark_catalog_changed(sections):
    """A new catalog version, committed with the data: each process relearns its predictor
    models, and reads the chart sheets again, on their next use instead of scanning the items
    to find out."""
    if any(sections.get(name) for name in PREDICTOR_SECTIONS):
        CatalogVersion.insert(id=1, version=uuid.uuid4().hex).on_conflict(
            conflict_target=[CatalogVersion.id], preserve=[CatalogVersion.version]).execute()


def _refresh_derived_state(sections):
    """Refreshes the derived state of the items the import touched; answers their ids, None for all."""
    # Locked: sellers may be writing these items while the import runs.
    if sections.get("domain_compatibilities"):
        # Category rules decide which items are incomplete: every item may have changed.
        refresh_items(None, lock=True)
        return None
    item_ids = {r["id"] for r in sections.get("items", ())}
    for name in ITEM_SECTIONS[1:]:
        item_ids.update(r["item_id"] for r in sections.get(name, ()))
    if item_ids:
        refresh_items(item_ids, lock=True)
    return item_ids
