"""PostgreSQL: the planner's count of the compatibilities' items (compat/queries.py,
ensure_item_statistics), then an ANALYZE of the table that takes it."""


def up(migrator, db):
    from app.db import is_postgres
    from app.services.compat.queries import ensure_item_statistics

    if is_postgres():
        ensure_item_statistics()
        db.execute_sql('ANALYZE "compatibility"')
