"""The import of a bundle: its structure validated, its references resolved, its sections written
in dependency order in one transaction, then the state derived from them brought up to date."""
import uuid

from app.db import db, is_postgres, lock_rows, write_transaction
from app.models import ALL_MODELS, CatalogVersion, Item
from app.services.bundle.bulk import collector_paused, import_cache, stored_rows_estimate
from app.services.bundle.references import check_references
from app.services.bundle.sections import SECTIONS
from app.services.bundle.validate import BundleError, validate_structure
from app.services.compat.item_state import refresh_items

BULK_RECORDS = 10_000
ATTEMPTS = 3
CONFLICTS = {"40P01": "deadlock", "40001": "serialization failure"}  # PostgreSQL's SQLSTATE of each
LOCK_CHUNK = 1_000
ANALYZE_GROWTH = 4  # a table is analysed again once an import adds a quarter of its rows


def import_bundle(bundle):
    """Validate then write `bundle` in one transaction; answers {section: records written}.

    Nothing is written when any problem is found; BundleError then lists them all. The schema
    must exist: the commands that call this ensure it first (`catalog import` creates a missing one).
    A transaction the database ends for a deadlock or a serialization failure with concurrent
    writes is run again, up to ATTEMPTS times in all; then BundleError says so in one line.
    """
    records = sum(len(v) for v in bundle.values() if isinstance(v, list)) if isinstance(bundle, dict) else 0
    with collector_paused(records):
        sections, problems, failed = validate_structure(bundle)
        # Inside a caller's transaction its locks are held whatever happens here: no second try.
        attempts = 1 if db.in_transaction() else ATTEMPTS
        for attempt in range(1, attempts + 1):
            try:
                with import_cache(records), write_transaction():
                    analysed = _write(sections, problems, failed)
                break
            except Exception as exc:
                conflict = _conflict(exc)
                if conflict is None:
                    raise
                if attempt == attempts:
                    raise BundleError([f"$: {attempts} attempt(s), each ended by a {conflict} with concurrent "
                                       "writes (run the import again)"]) from None
    _vacuum_after_bulk_load(sections, analysed)
    return {section.name: len(sections[section.name]) for section in SECTIONS if section.name in sections}


def _write(sections, problems, failed):
    """The import's transaction: references resolved, the bundle's items locked, every section
    written in order, the derived state brought up to date; answers the tables it analysed."""
    reference_problems, ctx = check_references(SECTIONS, sections, failed)
    if problems or reference_problems:
        raise BundleError(problems + reference_problems)
    item_ids = _item_ids(sections)
    _lock_items(item_ids)
    for section in SECTIONS:
        if sections.get(section.name):
            section.load(sections[section.name], ctx)
    refreshed = _refresh_derived_state(sections, item_ids)
    _mark_catalog_changed(sections)
    return _analyze_after_bulk_load(sections, refreshed)


def _conflict(exc):
    """What ended the transaction when the database did so for a deadlock or a serialization
    failure (psycopg's error, which peewee wraps, carries the SQLSTATE); else None."""
    pending, seen = [exc], set()
    while pending:
        error = pending.pop()
        if id(error) in seen:
            continue
        seen.add(id(error))
        conflict = CONFLICTS.get(getattr(error, "sqlstate", None))
        if conflict is not None:
            return conflict
        pending += [e for e in (*error.args[:1], error.__cause__, error.__context__) if isinstance(e, BaseException)]
    return None


def _item_ids(sections):
    """The ids of the items whose compatibilities, suggestions, exception or state the bundle writes."""
    item_ids = set()
    for section in SECTIONS:
        if section.item_field is not None and sections.get(section.name):
            item_ids.update(r[section.item_field] for r in sections[section.name])
    return item_ids


def _lock_items(item_ids):
    """Locks the bundle's stored items in id order, as each API write locks its item, before their
    stored rows are read: a seller's write to one of them then commits before the import reads
    it, or waits for the import's commit, never in between (a seller's delete committed after the
    import had read the item's compatibilities was undone, the deleted rows written back). SQLite's
    IMMEDIATE transaction already runs one writer at a time."""
    if not is_postgres():
        return
    ids = sorted(item_ids)
    for start in range(0, len(ids), LOCK_CHUNK):
        lock_rows(Item.select(Item.id).where(Item.id.in_(ids[start:start + LOCK_CHUNK])).order_by(Item.id))


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


def _refresh_derived_state(sections, item_ids):
    """Refreshes the derived state of the items the import touched; answers their ids, None for all."""
    if any(sections.get(section.name) for section in SECTIONS if section.every_item):
        item_ids = None  # category rules decide which items are incomplete: every item may have changed
    # Locked: sellers may be writing these items while the import runs (those of the bundle's
    # records are already locked; with every item, the others too).
    if item_ids is None or item_ids:
        refresh_items(item_ids, lock=True)
    return item_ids
