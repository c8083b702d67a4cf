"""Items get an integer key (app/services/items/queries.py), and the change records name their item by it
instead of its text id, with their (item, id) index rebuilt on the key.

The stored items are numbered in the order they were created. A record whose item is not stored (a
bundle could restore records of items it did not hold) stops the upgrade before anything changes,
naming the items: import them, or delete those records, then run the upgrade again. Both databases
add and drop the columns in place (SQLite from 3.35 on); PostgreSQL keeps the dropped text in the
rows until they are next written (`VACUUM FULL compatibility_change` gives its space back at once)."""


def _columns(db, table):
    return {column.name for column in db.get_columns(table)}


def up(migrator, db):
    from app.db import is_postgres
    from app.models import CompatibilityChange, Item
    from app.services.items.queries import ensure_item_keys, number_stored_items

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
    number_stored_items()
    db.execute_sql(f'CREATE UNIQUE INDEX IF NOT EXISTS "{items}_key" ON "{items}" ("key")')
    ensure_item_keys()
    if "item_id" not in _columns(db, records):
        return
    db.execute_sql(f'ALTER TABLE "{records}" ADD COLUMN "item_key" BIGINT')
    db.execute_sql(f'UPDATE "{records}" SET "item_key" = (SELECT i."key" FROM "{items}" i'
                   f' WHERE i."id" = "{records}"."item_id")')
    db.execute_sql(f'DROP INDEX IF EXISTS "{records}_item_id_id"')
    db.execute_sql(f'ALTER TABLE "{records}" DROP COLUMN "item_id"')
    db.execute_sql(f'CREATE INDEX IF NOT EXISTS "{records}_item_key_id" ON "{records}" ("item_key", "id")')
    if is_postgres():
        db.execute_sql(f'ALTER TABLE "{records}" ALTER COLUMN "item_key" SET NOT NULL')
