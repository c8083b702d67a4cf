"""Compatibility ids are stored in 16 bytes (app/models/uuid_keys.py) and read as the API's text; a
database whose ids were text is migrated in place (0009)."""
import hashlib
import uuid

import pytest

from app.data.demo import build_demo_bundle
from app.db import db, is_postgres
from app.migrations import create_schema
from app.models import Compatibility, CompatibilityChange
from app.models.base import time_ordered_uuids
from app.services.bundle import BundleError, export_bundle, import_bundle
from tests.compat.compat_data import SELLER_H, compat, full_bundle, url
from tests.helpers import assert_error

UPPER = "BCBD413F-CD65-0E0F-88C9-5EB4AEBB5372"
# The two tables as they were made before 0009, ids as text.
BEFORE_UUIDS = {
    "compatibility": "ALTER TABLE compatibility ALTER COLUMN id TYPE varchar(36)",
    "compatibility_change": "ALTER TABLE compatibility_change ALTER COLUMN compatibility_id TYPE varchar(36)",
}


def _stored_shape():
    """{column: (type as the database names it, bytes of a stored id)} of both id columns."""
    shape = {}
    for table, column in (("compatibility", "id"), ("compatibility_change", "compatibility_id")):
        if is_postgres():
            shape[column] = db.execute_sql(
                f'SELECT pg_typeof("{column}")::text, pg_column_size("{column}") FROM "{table}" LIMIT 1').fetchone()
        else:
            shape[column] = db.execute_sql(f'SELECT typeof("{column}"), length("{column}") FROM "{table}" LIMIT 1'
                                           ).fetchone()
    return shape


def test_ids_take_16_bytes_and_read_as_lower_case_text(client, load_bundle, run_db):
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001", id=UPPER), compat("MLA100", "MLA90013")]))
    shape = run_db(_stored_shape)
    assert shape == {column: ("uuid", 16) if run_db(is_postgres) else ("blob", 16)
                     for column in ("id", "compatibility_id")}

    listed = client.get(url(), headers=SELLER_H).get_json()
    ids = {c["id"] for c in listed["products"]}
    assert UPPER.lower() in ids
    made = next(i for i in ids if i != UPPER.lower())
    assert str(uuid.UUID(made)) == made and uuid.UUID(made).version == 7  # the import's time-ordered id
    # Found in either case, as a UUID is the same number in both.
    for asked in (UPPER, UPPER.lower()):
        response = client.get(url(suffix=f"/{asked}"), headers=SELLER_H)
        assert response.status_code == 200 and response.get_json()["id"] == UPPER.lower()
    history = client.get(url(suffix="/history"), headers=SELLER_H).get_json()
    assert {r["compatibility_id"] for r in history["results"]} == ids
    assert {c["id"] for c in run_db(export_bundle)["compatibilities"]} == ids


def test_an_id_that_is_no_uuid_names_no_compatibility(client, load_bundle):
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001", id=UPPER)]))
    for asked in ("nope", UPPER[:-1], UPPER.replace("-", ""), UPPER[:-1] + "g", "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"):
        assert_error(client.get(url(suffix=f"/{asked}"), headers=SELLER_H), 404, "compatibility_not_found")
        assert_error(client.delete(url(suffix=f"/{asked}"), headers=SELLER_H), 404, "compatibility_not_found")


def test_a_bundle_id_must_be_a_uuid(run_db):
    with pytest.raises(BundleError) as caught:
        run_db(import_bundle, full_bundle(compatibilities=[compat("MLA100", "MLA90001", id="legacy-7")]))
    assert caught.value.problems == [
        "compatibilities[0].id: must be a UUID of 36 characters (8-4-4-4-12 hexadecimal digits, such as "
        "bcbd413f-cd65-0e0f-88c9-5eb4aebb5372), not 'legacy-7'"]


def test_migration_turns_text_ids_into_uuids(client, load_bundle, run_db):
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001", id=UPPER), compat("MLA100", "MLA90013")]))
    before = client.get(url(), headers=SELLER_H).get_json()

    def as_before_the_uuids():
        """The ids as text, one in upper case and one that is no UUID (a bundle could give any text)."""
        if is_postgres():
            for statement in BEFORE_UUIDS.values():
                db.execute_sql(statement)
        else:
            for model, column in ((Compatibility, "id"), (CompatibilityChange, "compatibility_id")):
                table = model._meta.table_name
                ddl = db.execute_sql("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
                rows = db.execute_sql(f'SELECT * FROM "{table}"').fetchall()
                names = [d[0] for d in db.execute_sql(f'SELECT * FROM "{table}" LIMIT 0').description]
                db.execute_sql(f'DROP TABLE "{table}"')
                db.execute_sql(ddl.replace(f'"{column}" UUID', f'"{column}" VARCHAR(36)'))
                model._schema.create_indexes()
                marks = ", ".join("?" * len(names))
                db.cursor().executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)
        for table, column in (("compatibility", "id"), ("compatibility_change", "compatibility_id")):
            db.execute_sql(f'UPDATE "{table}" SET "{column}" = {db.param} WHERE "{column}" = {db.param}',
                           (UPPER, UPPER.lower()))
            db.execute_sql(f'UPDATE "{table}" SET "{column}" = {db.param} WHERE "{column}" <> {db.param}',
                           ("legacy-7", UPPER))
        db.execute_sql("DELETE FROM schema_migration WHERE name = '0009_uuid_compatibility_ids'")

    run_db(lambda: db.atomic()(as_before_the_uuids)())
    assert run_db(create_schema) == ["0009_uuid_compatibility_ids"]

    digest = hashlib.md5(b"legacy-7").hexdigest()
    legacy = str(uuid.UUID(digest))
    after = client.get(url(), headers=SELLER_H).get_json()
    renamed = {UPPER.lower(): UPPER.lower()} | {c["id"]: legacy for c in before["products"] if c["id"] != UPPER.lower()}
    assert after == {**before, "products": [{**c, "id": renamed[c["id"]]} for c in before["products"]]}
    history = client.get(url(suffix="/history"), headers=SELLER_H).get_json()
    assert {r["compatibility_id"] for r in history["results"]} == {UPPER.lower(), legacy}
    assert run_db(_stored_shape) == {column: ("uuid", 16) if run_db(is_postgres) else ("blob", 16)
                                     for column in ("id", "compatibility_id")}
    assert not run_db(lambda: db.table_exists("compatibility_before_uuid"))


def test_the_demos_ids_sort_below_every_id_the_service_makes():
    # Ids the service makes later land at the right edge of the primary key's index, where PostgreSQL
    # packs its leaves; a demo id above them would make it split those leaves in halves.
    demo_ids = [row["id"] for row in build_demo_bundle()["compatibilities"]]
    assert len(set(demo_ids)) == len(demo_ids) > 1000
    assert {uuid.UUID(i).version for i in demo_ids} == {7}
    assert max(demo_ids) < min(time_ordered_uuids(100))
