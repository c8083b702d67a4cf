"""Baseline: the schema of the first release, as app.schema.create_tables builds it."""


def up(migrator, db):
    from app.schema import create_tables

    create_tables()
