"""Change history (H1) and the compatibility state token behind the ETags (H2, H3).

The compatibility_change table is a new model: create_schema's create_tables() makes it.
"""
from peewee import CharField, IntegerField


def up(migrator, db):
    # One token for every existing item: the ETag also hashes the item id, so tags still differ.
    migrator.migrate(migrator.add_column("item", "compat_state", CharField(max_length=32, default="0")),
                     migrator.add_column("item", "history_count", IntegerField(default=0)))
