"""Items' integer keys (Item.key), given by the database when an item is first stored, and the change
records that name their item by it; a database whose records named items by their text id is migrated
in place (0014)."""
import psycopg
import pytest

from app.db import db, is_postgres
from app.migrations import create_schema
from app.models import CompatibilityChange, Item
from app.services.bundle import BundleError
from app.services.row_keys.queries import ensure_keys
from tests.bundles import item
from tests.catalog.test_attribute_keys import MIGRATION as ATTRIBUTE_KEYS
from tests.compat.compat_data import SELLER_H, compat, full_bundle, product, url
from tests.compat.test_compatibility_keys import MIGRATION as COMPATIBILITY_KEYS
from tests.compat.test_compatibility_keys import as_before_the_keys as as_before_the_compatibility_keys
from tests.compat.test_word_codes import MIGRATION as WORDS_MIGRATION
from tests.compat.test_word_codes import _as_words

MIGRATION = "0014_item_keys"
ITEMS, RECORDS = Item._meta.table_name, CompatibilityChange._meta.table_name


def _keys():
    return dict(Item.select(Item.id, Item.key).tuples())


def _record_columns():
    return {column.name for column in db.get_columns(RECORDS)}


def _as_before_the_keys(unstored_item=None):
    """The items without their key and the records naming their item by its text id, as before 0014
    (plus a record of `unstored_item`, an item that is not stored, when given), and so before 0015 and 0016."""
    as_before_the_compatibility_keys()
    db.execute_sql(f'ALTER TABLE "{RECORDS}" ADD COLUMN "item_id" VARCHAR(40)')
    db.execute_sql(f'UPDATE "{RECORDS}" SET "item_id" = (SELECT i."id" FROM "{ITEMS}" i'
                   f' WHERE i."key" = "{RECORDS}"."item_key")')
    db.execute_sql(f'DROP INDEX "{RECORDS}_item_key_id"')
    db.execute_sql(f'ALTER TABLE "{RECORDS}" DROP COLUMN "item_key"')
    db.execute_sql(f'CREATE INDEX "{RECORDS}_item_id_id" ON "{RECORDS}" ("item_id", "id")')
    if not is_postgres():
        db.execute_sql(f'DROP TRIGGER "{ITEMS}_key_given"')
    db.execute_sql(f'DROP INDEX "{ITEMS}_key"')
    db.execute_sql(f'ALTER TABLE "{ITEMS}" DROP COLUMN "key"')  # PostgreSQL drops its sequence with it
    if unstored_item:
        columns = '"compatibility_id", "action", "universal", "actor_kind", "date_created"'
        db.execute_sql(f'INSERT INTO "{RECORDS}" ("item_id", {columns}) SELECT {db.param}, {columns}'
                       f' FROM "{RECORDS}" ORDER BY "id" LIMIT 1', (unstored_item,))
    db.execute_sql(f"DELETE FROM schema_migration WHERE name = '{MIGRATION}'")


def _history(client, item_id="MLA100"):
    return client.get(url(item_id, suffix="/history?limit=50"), headers=SELLER_H).get_json()


def _written(client, load_bundle):
    """Records of two items, by the import and by the API."""
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001"), compat("MLA101", "MLA90002")]))
    body = {"products": [product("MLA90005")]}
    assert client.post(url(), json=body, headers=SELLER_H).status_code == 200
    return _history(client), _history(client, "MLA101")


def test_the_database_gives_each_new_item_a_key_that_an_update_keeps(run_db, load_bundle):
    load_bundle(full_bundle())
    keys = run_db(_keys)
    assert None not in keys.values() and len(set(keys.values())) == len(keys)
    renamed = {**item("MLA100", "MLA1747", "MLA-BRAKE_PADS"), "title": "Otro título"}
    load_bundle({"items": [renamed, item("MLA900", "MLA1747", "MLA-BRAKE_PADS")]})
    after = run_db(_keys)
    assert {k: v for k, v in after.items() if k != "MLA900"} == keys
    assert after["MLA900"] > max(keys.values())


def test_records_name_their_item_by_its_key(client, run_db, load_bundle):
    before = _written(client, load_bundle)
    stored = run_db(lambda: {(key, CompatibilityChange.select().where(CompatibilityChange.item_key == key).count())
                             for key in _keys().values()})
    keys = run_db(_keys)
    assert (keys["MLA100"], 2) in stored and (keys["MLA101"], 1) in stored
    assert "item_id" not in run_db(_record_columns)
    assert [len(page["results"]) for page in before] == [2, 1]


def test_a_history_record_of_an_item_not_stored_is_refused(load_bundle):
    with pytest.raises(BundleError) as refused:
        load_bundle({"compatibility_history": [{
            "id": 1, "item_id": "MLA999", "action": "CREATE",
            "compatibility_id": "0190d2f4-6c3e-7000-8000-000000000001", "date_created": "2026-01-01T00:00:00Z",
            "actor": {"user_id": None, "kind": "API"}}]})
    assert "compatibility_history[0].item_id: unknown item MLA999" in refused.value.problems


def test_migration_numbers_the_items_and_rewrites_the_records(client, run_db, load_bundle):
    before = _written(client, load_bundle)
    run_db(lambda: db.atomic()(_as_before_the_keys)())
    assert "item_id" in run_db(_record_columns)
    # First: the tests after this one need this code's schema.
    assert run_db(create_schema) == [MIGRATION, COMPATIBILITY_KEYS, ATTRIBUTE_KEYS]
    assert (_history(client), _history(client, "MLA101")) == before
    keys = run_db(lambda: [key for _, key in Item.select(Item.id, Item.key)
                           .order_by(Item.date_created, Item.id).tuples()])
    assert keys == list(range(1, len(keys) + 1))
    assert "item_id" not in run_db(_record_columns)
    indexes = run_db(lambda: {tuple(i.columns) for i in db.get_indexes(RECORDS)})
    assert ("item_key", "id") in indexes and ("item_id", "id") not in indexes
    load_bundle({"items": [item("MLA900", "MLA1747", "MLA-BRAKE_PADS")]})  # the next key follows them
    assert run_db(_keys)["MLA900"] == len(keys) + 1


def test_migration_stops_on_a_record_of_an_item_not_stored_and_changes_nothing(client, run_db, load_bundle):
    _written(client, load_bundle)
    run_db(lambda: db.atomic()(_as_before_the_keys)("MLA777"))
    try:
        with pytest.raises(RuntimeError, match=r"compatibility_change holds records of items that are not stored "
                                               r"\(MLA777\): import those items, or delete their records"):
            run_db(create_schema)
        assert "item_id" in run_db(_record_columns)
    finally:  # as the message says; the database is then this code's again for the tests after this one
        run_db(db.execute_sql, f"DELETE FROM \"{RECORDS}\" WHERE \"item_id\" = 'MLA777'")
        assert run_db(create_schema) == [MIGRATION, COMPATIBILITY_KEYS, ATTRIBUTE_KEYS]
    assert "item_id" not in run_db(_record_columns)


def test_a_database_two_releases_behind_takes_both_migrations(client, run_db, load_bundle):
    """Before 0013 and 0014: 0013 rebuilds SQLite's tables from their own statements, so the records'
    text item id is still there when 0014 comes to replace it."""
    before = _written(client, load_bundle)
    run_db(lambda: db.atomic()(_as_words)())
    run_db(lambda: db.atomic()(_as_before_the_keys)())
    assert run_db(create_schema) == [WORDS_MIGRATION, MIGRATION, COMPATIBILITY_KEYS, ATTRIBUTE_KEYS]
    assert (_history(client), _history(client, "MLA101")) == before
    assert "item_id" not in run_db(_record_columns)


def test_keys_in_place_are_not_altered_again_while_the_service_reads_items(app, run_db, database_url):
    """`db upgrade` runs while the service serves: once the default is in place, checking it again takes
    no lock that would queue the service's reads of items behind it."""
    if not run_db(is_postgres):
        pytest.skip("PostgreSQL's ALTER TABLE locks the table; SQLite's trigger is created IF NOT EXISTS")
    with psycopg.connect(database_url) as reader:
        reader.execute(f'SELECT 1 FROM "{ITEMS}" LIMIT 1')  # its lock stays until this transaction ends

        def ensure_quickly():
            with db.atomic():
                db.execute_sql("SET LOCAL lock_timeout = '300ms'")
                ensure_keys(Item)
        run_db(ensure_quickly)
