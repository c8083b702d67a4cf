"""Scans of a seller's items (search_type=scan): the item_scroll table is a new model, which
create_schema's create_tables() makes; this file records the step, so readiness sees a database
that has not had it as behind."""


def up(migrator, db):
    pass
