"""The database's tables and their versions: create a fresh database, or upgrade an existing one.

The numbered files beside this one are the versioned migrations (peewee's playhouse.migrations:
`NNNN_name.py` files with `up(migrator, db)`, applied in order and recorded in the `schema_migration`
table; its runner lists only the files whose name starts with a digit, so this `__init__.py` is never
taken for one). A fresh database is built from the current models and stamped with every migration,
since the models already include them; an existing one gets the migrations it has not applied yet,
so its data survives a new release.
"""
import os

from playhouse.migrations import Runner

from app.db import db
from app.models import ALL_MODELS, Item, Product
from app.models.search_index import ensure_search_index
from app.services.compat.queries import ensure_item_statistics
from app.services.notifications.feed import ensure_feed_column
from app.services.row_keys.queries import ensure_keys

MIGRATIONS_DIR = os.path.dirname(__file__)
BASELINE = "0001_initial"


def create_tables():
    db.create_tables(ALL_MODELS, safe=True)
    ensure_search_index()
    ensure_feed_column()
    ensure_item_statistics()
    ensure_keys(Item)
    ensure_keys(Product)


def create_schema(migrations_dir=MIGRATIONS_DIR):
    """Create or upgrade the schema; safe to run any number of times. Returns what it applied."""
    runner = Runner(db.obj, migrations_dir)
    with db.atomic():
        if not Item.table_exists():
            create_tables()
            return runner.fake()
        if not runner.History.table_exists():
            # Tables made before versioning existed are the baseline release.
            runner.fake(BASELINE)
    applied = runner.up()
    with db.atomic():
        create_tables()  # indexes and tables of models added since: CREATE ... IF NOT EXISTS
    return applied


def schema_status(migrations_dir=MIGRATIONS_DIR):
    """(name, when applied or None) of this code's migrations, then those only the database knows."""
    return [(m.name, m.applied) for m in Runner(db.obj, migrations_dir).status()]


class SchemaDrift:
    """How the database's migrations differ from this code's: `pending` (the code has them, the
    database has not had them: it is behind) and `unknown` (the database had them, this code does not
    know them: a newer release upgraded it). False when there is neither."""

    def __init__(self, pending, unknown, empty=False):
        self.pending, self.unknown, self.empty = list(pending), list(unknown), empty

    def __bool__(self):
        return bool(self.pending or self.unknown)

    def __str__(self):
        if self.empty:
            return "the database has no tables yet: run `flask --app wsgi db upgrade`"
        parts = []
        if self.pending:
            parts.append(f"{_count(self.pending)} behind this code (pending: {', '.join(self.pending)}): "
                         "run `flask --app wsgi db upgrade`")
        if self.unknown:
            parts.append(f"{_count(self.unknown)} ahead of this code (unknown here: {', '.join(self.unknown)}): "
                         "a newer release upgraded it; run that release (`flask --app wsgi db upgrade` "
                         "never goes back)")
        return "the database is " + "; and ".join(parts)


def _count(names):
    return f"{len(names)} migration{'s' if len(names) != 1 else ''}"


def schema_drift(database=None, migrations_dir=MIGRATIONS_DIR):
    """The SchemaDrift of `database` (default: the app's) against this code's migrations: two or
    three short queries, run when gunicorn starts, by `db status`, and by /health until it passes."""
    database = database or db.obj
    runner = Runner(database, migrations_dir)
    known = [m.name for m in runner.migrations()]
    if not database.table_exists(Item._meta.table_name):
        return SchemaDrift(known, [], empty=True)
    # Tables made before versioning existed are the baseline release (see create_schema).
    applied = set(runner.applied()) or {BASELINE}
    return SchemaDrift([name for name in known if name not in applied], sorted(applied - set(known)))
