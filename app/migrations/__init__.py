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
from app.models import ALL_MODELS, Item
from app.models.search_index import ensure_search_index

MIGRATIONS_DIR = os.path.dirname(__file__)
BASELINE = "0001_initial"


def create_tables():
    db.create_tables(ALL_MODELS, safe=True)
    ensure_search_index()


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
    return [(m.name, m.applied) for m in Runner(db.obj, migrations_dir).status()]
