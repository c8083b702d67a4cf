"""Baseline: the schema of the first release, as app.migrations.create_tables builds it."""


def up(migrator, db):
    from app.migrations import create_tables

    create_tables()
