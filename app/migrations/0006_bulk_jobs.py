"""Bulk compatibility jobs (extensions.md, J): change records name the job that made them. The
bulk_job, bulk_row and bulk_item tables are new models: create_schema's create_tables() makes them."""
from peewee import CharField


def up(migrator, db):
    migrator.migrate(migrator.add_column("compatibility_change", "job_id", CharField(max_length=36, null=True)))
