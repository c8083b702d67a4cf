"""Items get an integer key (app/services/row_keys/queries.py), and the change records name their item by it
instead of its text id, with their (item, id) index rebuilt on the key.

The stored items are numbered in the order they were created. A record whose item is not stored (a
bundle could restore records of items it did not hold) stops the upgrade before anything changes,
naming the items: import them, or delete those records, then run the upgrade again. PostgreSQL
changes the column's type (one rewrite of the table, as 0013); SQLite adds the key's column and
drops the text's (from SQLite 3.35 on)."""


def _columns(db, table):
    return {column.name for column in db.get_columns(table)}


def up(migrator, db):
    from app.db import is_postgres
    from app.models import CompatibilityChange, Item
    from app.services.row_keys.queries import ensure_keys, number_stored

    items, records = Item._meta.table_name, CompatibilityChange._meta.table_name
    if "item_id" in _columns(db, records):
        missing = [i for (i,) in db.execute_sql(
            f'SELECT DISTINCT c."item_id" FROM "{records}" c WHERE NOT EXISTS'
            f' (SELECT 1 FROM "{items}" i WHERE i."id" = c."item_id") ORDER BY 1 LIMIT 6').fetchall()]
        if missing:
            shown = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
            raise RuntimeError(f"{records} holds records of items that are not stored ({shown}): import those "
                               "items, or delete their records, then run the upgrade again")
    if "key" not in _columns(db, items):
        db.execute_sql(f'ALTER TABLE "{items}" ADD COLUMN "key" BIGINT')
    number_stored(Item, ('date_created', 'id'))
    db.execute_sql(f'CREATE UNIQUE INDEX IF NOT EXISTS "{items}_key" ON "{items}" ("key")')
    ensure_keys(Item)
    if "item_id" not in _columns(db, records):
        return
    if is_postgres():
        # One rewrite of the table and its indexes, as 0013's: an UPDATE would leave every row's old
        # version behind, and the dropped text in the new ones, until a VACUUM FULL.
        db.execute_sql(f'CREATE FUNCTION pg_temp.item_key_of(text) RETURNS bigint LANGUAGE sql STABLE'
                       f' AS $$ SELECT "key" FROM "{items}" WHERE "id" = $1 $$')
        db.execute_sql(f'ALTER TABLE "{records}" ALTER COLUMN "item_id" TYPE bigint'
                       ' USING pg_temp.item_key_of("item_id")')
        db.execute_sql("DROP FUNCTION pg_temp.item_key_of(text)")
        db.execute_sql(f'ALTER TABLE "{records}" RENAME COLUMN "item_id" TO "item_key"')
        db.execute_sql(f'ALTER INDEX "{records}_item_id_id" RENAME TO "{records}_item_key_id"')
        db.execute_sql(f'ALTER TABLE "{records}" ALTER COLUMN "item_key" SET NOT NULL')
        return
    db.execute_sql(f'ALTER TABLE "{records}" ADD COLUMN "item_key" BIGINT')
    db.execute_sql(f'UPDATE "{records}" SET "item_key" = (SELECT i."key" FROM "{items}" i'
                   f' WHERE i."id" = "{records}"."item_id")')
    db.execute_sql(f'DROP INDEX IF EXISTS "{records}_item_id_id"')
    db.execute_sql(f'ALTER TABLE "{records}" DROP COLUMN "item_id"')  # SQLite rewrites every row without it
    db.execute_sql(f'CREATE INDEX IF NOT EXISTS "{records}_item_key_id" ON "{records}" ("item_key", "id")')
