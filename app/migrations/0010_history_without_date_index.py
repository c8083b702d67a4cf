"""Change records without an index of their dates: the retention purge finds its records by id
(app/services/history/reads.py), and the index cost each record as much as its item's index."""


def up(migrator, db):
    db.execute_sql('DROP INDEX IF EXISTS "compatibility_change_date_created"')
