"""A compatibility's source and creation_source, and a change record's action, source, creation_source
and actor kind, are stored as small integers (app/models/word_codes.py) and read as the API's words;
a database that stored the words is migrated in place (0013)."""
import pytest

from app.db import db, is_postgres
from app.migrations import create_schema
from app.models import Compatibility, CompatibilityChange
from app.models.word_codes import WordCodeField
from app.services.bundle import export_bundle
from tests.compat.compat_data import SELLER_H, compat, full_bundle, product, url

MIGRATION = "0013_word_codes"
MODELS = (Compatibility, CompatibilityChange)


def _coded(model):
    return [f for f in model._meta.sorted_fields if isinstance(f, WordCodeField)]


def _stored_types():
    """{table.column: {type of each stored value}} of every coded column, NULLs left out."""
    types = {}
    for model in MODELS:
        table = model._meta.table_name
        for f in _coded(model):
            typeof = 'pg_typeof("{}")::text' if is_postgres() else 'typeof("{}")'
            types[f"{table}.{f.column_name}"] = {t for (t,) in db.execute_sql(
                f'SELECT DISTINCT {typeof.format(f.column_name)} FROM "{table}"'
                f' WHERE "{f.column_name}" IS NOT NULL')}
    return types


def _history(client):
    return client.get(url(suffix="/history?limit=50"), headers=SELLER_H).get_json()


def _written(client, load_bundle):
    """A catalog's compatibility (CATALOGO), one created by the API with its creation_source, one
    deleted through the API: every word of both tables in use, both ways of writing a record."""
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001", source="CATALOGO"),
                                             compat("MLA100", "MLA90002", creation_source="ITEM_SUGGESTIONS")]))
    body = {"products": [product("MLA90005", source="NEW_VEHICLES")]}
    assert client.post(url(), json=body, headers=SELLER_H).status_code == 200
    listed = client.get(url(), headers=SELLER_H).get_json()["products"]
    gone = next(c["id"] for c in listed if c["catalog_product_id"] == "MLA90002")
    assert client.delete(url(suffix=f"/{gone}"), headers=SELLER_H).status_code == 200
    return client.get(url(), headers=SELLER_H).get_json()


def test_words_are_stored_as_small_integers_and_read_as_words(client, load_bundle, run_db):
    listed = _written(client, load_bundle)
    assert {(c["catalog_product_id"], c["source"]) for c in listed["products"]} == {
        ("MLA90001", "CATALOGO"), ("MLA90005", "SELLER")}
    history = _history(client)["results"]
    assert [(r["action"], r["product_id"], r["source"], r["creation_source"], r["actor"]["kind"])
            for r in history] == [
        ("DELETE", "MLA90002", "SELLER", "ITEM_SUGGESTIONS", "API"),
        ("CREATE", "MLA90005", "SELLER", "NEW_VEHICLES", "API"),
        ("CREATE", "MLA90002", "SELLER", "ITEM_SUGGESTIONS", "IMPORT"),
        ("CREATE", "MLA90001", "CATALOGO", "DEFAULT", "IMPORT")]
    expected = "smallint" if run_db(is_postgres) else "integer"
    assert run_db(_stored_types) == {
        f"{m._meta.table_name}.{f.column_name}": {expected} for m in MODELS for f in _coded(m)}
    exported = {c["product_id"]: (c["source"], c["creation_source"]) for c in run_db(export_bundle)["compatibilities"]}
    assert exported == {"MLA90001": ("CATALOGO", "DEFAULT"), "MLA90005": ("SELLER", "NEW_VEHICLES")}


def test_a_word_of_no_vocabulary_is_refused_by_name():
    with pytest.raises(ValueError, match="source is one of SELLER, CATALOGO, not 'VENDOR'"):
        Compatibility.source.db_value("VENDOR")


def _as_words(overrides=None):
    """Both tables as they were before 0013: the coded columns hold their words as text (one value
    replaced by `overrides` {table.column: text})."""
    for model in MODELS:
        table, fields = model._meta.table_name, _coded(model)
        if is_postgres():
            db.execute_sql(f'ALTER TABLE "{table}" ' + ", ".join(
                f'ALTER COLUMN "{f.column_name}" TYPE varchar(30) USING CASE "{f.column_name}" '
                + " ".join(f"WHEN {n} THEN '{w}'" for n, w in f.words.items() if n) + " END" for f in fields))
        else:
            ddl = db.execute_sql("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
            rows = db.execute_sql(f'SELECT * FROM "{table}"').fetchall()
            names = [d[0] for d in db.execute_sql(f'SELECT * FROM "{table}" LIMIT 0').description]
            db.execute_sql(f'DROP TABLE "{table}"')
            for f in fields:
                ddl = ddl.replace(f'"{f.column_name}" SMALLINT', f'"{f.column_name}" VARCHAR(30)')
            db.execute_sql(ddl)
            model._schema.create_indexes()
            words = {names.index(f.column_name): f.words for f in fields}
            rows = [tuple(words[n][v] if n in words else v for n, v in enumerate(row)) for row in rows]
            db.cursor().executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(names))})', rows)
    for column, text in (overrides or {}).items():
        table, name = column.split(".")
        db.execute_sql(f'UPDATE "{table}" SET "{name}" = {db.param} WHERE "id" IN '
                       f'(SELECT "id" FROM "{table}" ORDER BY "id" LIMIT 1)', (text,))
    db.execute_sql(f"DELETE FROM schema_migration WHERE name = '{MIGRATION}'")


def test_migration_turns_stored_words_into_numbers(client, load_bundle, run_db):
    before = _written(client, load_bundle), _history(client)
    run_db(lambda: db.atomic()(_as_words)())
    words = {t for types in run_db(_stored_types).values() for t in types}
    assert run_db(create_schema) == [MIGRATION]  # first: the tests after this one need this code's schema
    assert words == ({"character varying"} if run_db(is_postgres) else {"text"})
    assert (client.get(url(), headers=SELLER_H).get_json(), _history(client)) == before
    expected = "smallint" if run_db(is_postgres) else "integer"
    assert {t for types in run_db(_stored_types).values() for t in types} == {expected}
    assert not run_db(lambda: db.table_exists("compatibility_before_codes"))


def test_migration_stops_on_a_word_of_no_vocabulary_and_changes_nothing(client, load_bundle, run_db):
    _written(client, load_bundle)
    run_db(lambda: db.atomic()(_as_words)({"compatibility_change.actor_kind": "ROBOT"}))
    try:
        with pytest.raises(RuntimeError, match="compatibility_change.actor_kind holds 'ROBOT', which are none of "
                                               "'API', 'IMPORT', 'OPERATOR', 'BULK': correct those rows"):
            run_db(create_schema)
        words = {t for types in run_db(_stored_types).values() for t in types}
        assert words == ({"character varying"} if run_db(is_postgres) else {"text"})
    finally:  # as the message says; the database is then this code's again for the tests after this one
        run_db(db.execute_sql, "UPDATE compatibility_change SET actor_kind = 'IMPORT' WHERE actor_kind = 'ROBOT'")
        assert run_db(create_schema) == [MIGRATION]
    assert run_db(_stored_types)["compatibility_change.actor_kind"] == (
        {"smallint"} if run_db(is_postgres) else {"integer"})
