"""The import of a bundle: its structure validated, its references resolved, its sections written
in dependency order in one transaction, then the state derived from them brought up to date."""
import uuid

from app.db import db, is_postgres, write_transaction
from app.models import ALL_MODELS, CatalogVersion, Item
from app.services.bundle.bulk import collector_paused, import_cache, stored_rows_estimate
from app.services.bundle.references import check_references
from app.services.bundle.sections import SECTIONS
from app.services.bundle.validate import BundleError, validate_structure
from app.services.compat.item_state import refresh_items

BULK_RECORDS = 10_000
ANALYZE_GROWTH = 4  # a table is analysed again once an import adds a quarter of its rows


def import_bundle(bundle):
    """Validate then write `bundle` in one transaction; answers {section: records written}.

    Nothing is written when any problem is found; BundleError then lists them all. The schema
    must exist: the commands that call this ensure it first (`catalog import` creates a missing one).
    """
    records = sum(len(v) for v in bundle.values() if isinstance(v, list)) if isinstance(bundle, dict) else 0
    with collector_paused(records), import_cache(records), write_transaction():
        sections, problems, failed = validate_structure(bundle)
        reference_problems, ctx = check_references(SECTIONS, sections, failed)
        problems += reference_problems
        if problems:
            raise BundleError(problems)
        for section in SECTIONS:
            if sections.get(section.name):
                section.load(sections[section.name], ctx)
        refreshed = _refresh_derived_state(sections)
        for section in SECTIONS:
            if section.after is not None and sections.get(section.name):
                section.after(sections[section.name])
        _mark_catalog_changed(sections)
        analysed = _analyze_after_bulk_load(sections, refreshed)
    _vacuum_after_bulk_load(sections, analysed)
    return {section.name: len(sections[section.name]) for section in SECTIONS if section.name in sections}


def _vacuum_after_bulk_load(sections, analysed=()):
    """PostgreSQL answers the finder's index-only scans from the index alone only for pages its
    visibility map marks all-visible, which fresh rows are not until a VACUUM: a deep page of a
    just-imported catalog read every heap row it skipped. VACUUM cannot run inside a transaction,
    so only a top-level import does it. A table the import's transaction already analysed
    (`analysed`) is not sampled again."""
    if not is_postgres() or db.in_transaction():
        return
    tables = [model._meta.table_name for section in SECTIONS if section.vacuumed
              and len(sections.get(section.name) or ()) >= BULK_RECORDS for model in section.vacuumed]
    for option, group in (("(ANALYZE) ", [t for t in tables if t not in analysed]),
                          ("", [t for t in tables if t in analysed])):
        if group:
            db.execute_sql(f"VACUUM {option}" + ", ".join(f'"{t}"' for t in group))


def _analyze_after_bulk_load(sections, refreshed_items=None):
    """PostgreSQL plans with the statistics it had before the load; a table that grew from
    empty to a large one would be scanned whole by the next IN lookup (the re-import's among
    them) until autovacuum catches up. Only the tables the import wrote (a chunk of
    compatibilities need not sample the product tables again), and only those it grew by a
    quarter or more: a further chunk into a large table changes no plan, and sampling the large
    tables again was a large part of each chunk's import.

    The items of an import without an items section only had their derived state refreshed
    (`refreshed_items`, None for all): that table counts the items changed, not the records
    loaded, so a large chunk of compatibilities on a few of many items does not sample it."""
    written_rows = sum(len(records) for records in sections.values())
    if not is_postgres() or written_rows < BULK_RECORDS:
        return []
    declared = [section.writes for section in SECTIONS if sections.get(section.name)]
    models = ALL_MODELS
    if all(writes is not None for writes in declared):
        models = [m for m in ALL_MODELS if any(m in writes for writes in declared)]
    item_rows = written_rows if sections.get("items") or refreshed_items is None else len(refreshed_items)
    tables = [m._meta.table_name for m in models
              if (item_rows if m is Item else written_rows) * ANALYZE_GROWTH
              >= stored_rows_estimate(m._meta.table_name)]
    if tables:
        db.execute_sql("ANALYZE " + ", ".join(f'"{t}"' for t in tables))
    return tables


def _mark_catalog_changed(sections):
    """A new catalog version, committed with the data: each process relearns its predictor
    models, and reads the chart sheets again, on their next use instead of scanning the items
    to find out."""
    if any(sections.get(section.name) for section in SECTIONS if section.feeds_predictor):
        CatalogVersion.insert(id=1, version=uuid.uuid4().hex).on_conflict(
            conflict_target=[CatalogVersion.id], preserve=[CatalogVersion.version]).execute()


def bundle_items(sections):
    """The ids of the items whose derived state the bundle's records change; None for every item."""
    if any(sections.get(section.name) for section in SECTIONS if section.every_item):
        return None
    item_ids = set()
    for section in SECTIONS:
        if section.item_field is not None and sections.get(section.name):
            item_ids.update(r[section.item_field] for r in sections[section.name])
    return item_ids


def _refresh_derived_state(sections):
    """Refreshes the derived state of the items the import touched; answers their ids, None for all."""
    item_ids = bundle_items(sections)
    # Locked: sellers may be writing these items while the import runs.
    if item_ids is None or item_ids:
        refresh_items(item_ids, lock=True)
    return item_ids
