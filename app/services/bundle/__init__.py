"""The catalog bundle (import-format.md): `import_bundle` validates a whole bundle, then writes
it in one transaction; `export_bundle` writes the database back in the same format."""
import uuid

from app.db import db, is_postgres, write_transaction
from app.models import ALL_MODELS, CatalogVersion
from app.services.bundle import load, load_items
from app.services.bundle.export import export_bundle
from app.services.bundle.refs import check_references
from app.services.bundle.validate import validate_structure
from app.services.compat.item_state import refresh_items

# In dependency order: a section is written after those its records point to.
LOADERS = [
    ("currencies", load.load_currencies), ("sites", load.load_sites), ("users", load.load_users),
    ("applications", load.load_applications), ("domains", load.load_domains),
    ("categories", load.load_categories), ("domain_compatibilities", load.load_domain_compatibilities),
    ("restriction_values", load.load_restriction_values), ("products", load.load_products),
    ("items", load_items.load_items), ("compatibilities", load_items.load_compatibilities),
    ("suggestions", load_items.load_suggestions), ("exceptions", load_items.load_exceptions),
    ("orders", load_items.load_orders), ("claims", load_items.load_claims),
    ("chart_domains", load_items.load_chart_domains), ("technical_specs", load_items.load_technical_specs),
    ("charts", load_items.load_charts), ("domain_discovery", load_items.load_domain_discovery),
]
BULK_RECORDS = 10_000
ITEM_SECTIONS = ("items", "compatibilities", "suggestions", "exceptions")
# What the category predictor learns from (app/services/catalog/predictor.py).
PREDICTOR_SECTIONS = ("domains", "categories", "items", "domain_discovery")

__all__ = ["BundleError", "import_bundle", "export_bundle"]


class BundleError(Exception):
    """A bundle that cannot be imported; `problems` lists every one as `json.path: message`."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s) in the bundle:\n" + "\n".join(self.problems))


def import_bundle(bundle):
    """Validate then write `bundle` in one transaction; answers {section: records written}.

    Nothing is written when any problem is found; BundleError then lists them all. The schema
    must exist: the commands that call this ensure it first (`catalog import` creates a missing one).
    """
    with write_transaction():
        sections, problems, failed = validate_structure(bundle)
        reference_problems, ctx = check_references(sections, failed)
        problems += reference_problems
        if problems:
            raise BundleError(problems)
        for name, loader in LOADERS:
            if sections.get(name):
                loader(sections[name], ctx)
        _refresh_derived_state(sections)
        _mark_catalog_changed(sections)
        _analyze_after_bulk_load(sections)
    _vacuum_after_bulk_load(sections)
    return {name: len(sections.get(name) or ()) for name, _ in LOADERS if name in sections}


def _vacuum_after_bulk_load(sections):
    """PostgreSQL answers the finder's index-only scans from the index alone only for pages its
    visibility map marks all-visible, which fresh rows are not until a VACUUM: the page at offset
    10,000 of a just-imported catalog read 10,050 heap rows (13.6 ms instead of 3.5). VACUUM cannot
    run inside a transaction, so only a top-level import does it; 6 s for a million products."""
    if (is_postgres() and not db.in_transaction()
            and len(sections.get("products") or ()) >= BULK_RECORDS):
        db.execute_sql('VACUUM (ANALYZE) "product", "product_attribute", "finder_facet", "finder_pair_facet"')


def _analyze_after_bulk_load(sections):
    """PostgreSQL plans with the statistics it had before the load; a table that grew from
    empty to 500,000 rows would be scanned whole by the next IN lookup (the re-import's among
    them) until autovacuum catches up."""
    if is_postgres() and sum(len(records) for records in sections.values()) >= BULK_RECORDS:
        db.execute_sql("ANALYZE " + ", ".join(f'"{m._meta.table_name}"' for m in ALL_MODELS))


def _mark_catalog_changed(sections):
    """A new catalog version, committed with the data: each process relearns its predictor
    models on their next use instead of scanning the items to find out."""
    if any(sections.get(name) for name in PREDICTOR_SECTIONS):
        CatalogVersion.insert(id=1, version=uuid.uuid4().hex).on_conflict(
            conflict_target=[CatalogVersion.id], preserve=[CatalogVersion.version]).execute()


def _refresh_derived_state(sections):
    if sections.get("domain_compatibilities"):
        # Category rules decide which items are incomplete: every item may have changed.
        refresh_items(None)
        return
    item_ids = {r["id"] for r in sections.get("items", ())}
    for name in ITEM_SECTIONS[1:]:
        item_ids.update(r["item_id"] for r in sections.get(name, ()))
    if item_ids:
        refresh_items(item_ids)
