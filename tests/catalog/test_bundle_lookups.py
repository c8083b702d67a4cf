"""The importer's keyed lookups (bundle/sql.py, `select_in`): every stored key is found whatever it
holds; on PostgreSQL plain text keys go as one string split by the server (`any_of`), any other
list as an array."""
import pytest

from app.db import db, is_postgres
from app.models import Domain, Site
from app.services.bundle import compatibilities, sql
from app.services.bundle.sql import any_of, index_lookups, select_in
from tests.bundle_data import full_bundle
from tests.compat.compat_data import compatibility_rows
from tests.helpers import recorded_statements

ODD_IDS = ["MLA-A,B", "", "MLA-{X}", 'MLA-"Q"', "MLA-\\Z", "MLA-Ñandú"]


def store_odd_domains():
    for domain_id in ODD_IDS:
        Domain.create(id=domain_id, site=Site.get().id, name=f"odd {domain_id!r}")


def looked_up(keys):
    with recorded_statements() as seen:
        found = sorted(key for (key,) in select_in(Domain, ["id"], "id", keys))
    return found, seen


@pytest.mark.parametrize("keys", [ODD_IDS, ["MLA-A,B"], [""], ["MLA-{X}", 'MLA-"Q"', "MLA-\\Z", "MLA-Ñandú"]],
                         ids=["all", "comma", "empty", "quotes-braces-backslash"])
def test_every_stored_key_is_found_whatever_it_holds(load_bundle, run_db, keys):
    load_bundle(full_bundle())
    run_db(store_odd_domains)
    found, _ = run_db(looked_up, keys + ["MLA-NOT-STORED"])
    assert found == sorted(keys)


def test_plain_text_keys_go_as_one_string_on_postgresql(load_bundle, run_db):
    load_bundle(full_bundle())
    stored = sorted(key for (key,) in run_db(lambda: list(Domain.select(Domain.id).tuples())))
    found, seen = run_db(looked_up, stored + ["MLA-NOT-STORED"])
    assert found == stored
    if run_db(is_postgres):
        assert len(seen) == 1 and "string_to_array" in seen[0]


def test_keys_are_asked_in_key_order_one_range_a_statement(load_bundle, run_db, monkeypatch):
    # Keys from a set arrive in any order: asked as they come, every chunk read pages all over the index.
    load_bundle(full_bundle())
    run_db(store_odd_domains)
    monkeypatch.setattr(sql, "IN_CHUNK", 2)
    monkeypatch.setattr(sql, "ANY_CHUNK", 2)
    bound = []

    def lookup():
        with recorded_statements(bound):
            return sorted(key for (key,) in select_in(Domain, ["id"], "id", reversed(ODD_IDS)))

    assert run_db(lookup) == sorted(ODD_IDS)
    # Each statement's keys: SQLite's IN list, or PostgreSQL's one string split by the server or array.
    asked = [params[0].split(",") if len(params) == 1 and isinstance(params[0], str) else
             list(params[0]) if len(params) == 1 else list(params) for params in bound]
    assert [key for chunk in asked for key in chunk] == sorted(ODD_IDS)


def test_keys_of_mixed_types_are_asked_as_given(run_db):
    if run_db(is_postgres):
        pytest.skip("PostgreSQL's array parameter takes one type: psycopg refuses the list")
    assert run_db(lambda: list(select_in(Domain, ["id"], "id", ["MLA-NONE", 7]))) == []


@pytest.mark.parametrize("values, split", [
    (["a", "b"], True), (["a,b", "c"], False), (["", "c"], False), ([1, 2], False), (["a", 2], False)])
def test_any_of_splits_only_texts_that_the_split_gives_back(values, split):
    sql, params = any_of('"id"', values)
    assert ("string_to_array" in sql) is split
    if split:
        assert params == (",".join(values),) and params[0].split(",") == values
    else:
        assert params == (values,)


def seq_scans():
    return db.execute_sql("SELECT current_setting('enable_seqscan')").fetchone()[0]


def test_index_lookups_turn_table_scans_off_for_the_block_only(run_db):
    def inside_an_import():
        with db.atomic():
            before = seq_scans()
            with index_lookups():
                during = seq_scans()
            return before, during, seq_scans()

    def outside_a_transaction():
        with index_lookups():
            return seq_scans()

    def statements_on_sqlite():
        with db.atomic(), recorded_statements() as seen, index_lookups():
            pass
        return seen

    if run_db(is_postgres):
        assert run_db(inside_an_import) == ("on", "off", "on")
        assert run_db(outside_a_transaction) == "on"  # SET LOCAL there would warn and do nothing
    else:
        assert run_db(statements_on_sqlite) == []  # SQLite reads such keys by index already


def test_an_imports_stored_compatibilities_are_read_without_table_scans(load_bundle, run_db, monkeypatch):
    load_bundle(full_bundle())
    stored = run_db(lambda: {(c.item_key, c.product_key): c.id for c in compatibility_rows()})
    items = {item_key for item_key, _ in stored}
    settings = []
    real_select_in = compatibilities.select_in

    def spying(*args, **kwargs):
        settings.append(seq_scans() if is_postgres() else None)
        return real_select_in(*args, **kwargs)

    monkeypatch.setattr(compatibilities, "select_in", spying)
    found = run_db(lambda: db.atomic()(compatibilities._stored_compatibility_ids)(items | {999_999_999}))
    assert found == stored and stored
    assert settings == (["off"] if run_db(is_postgres) else [None])


def test_rows_of_integers_and_texts_are_copied_in_binary_and_read_back_as_given(load_bundle, run_db, monkeypatch):
    """PostgreSQL's COPY takes rows of integer and text columns in its binary format (sql._copy_rows),
    NULLs, accents, quotes, backslashes and the largest counts included; a table with other columns
    (JSON, timestamps) keeps the text format."""
    from app.models.finder import FinderFacet

    load_bundle(full_bundle())
    chosen = []
    binary_types = sql._binary_types
    monkeypatch.setattr(sql, "_binary_types", lambda fields: chosen.append(binary_types(fields)) or chosen[-1])
    fields = ["domain_id", "attribute_id", "value_id", "value_name", "metric"]
    rows = [("MLA-CARS_AND_VANS", "ODD", value_id, name, metric)
            for value_id, name, metric in [(None, "Ñandú \\ \"q\" ,{x}", 2 ** 31 - 1), ("v1", None, 0),
                                           ("v2", "tab\there\nline", 1), ("", "", 7)]]

    def copy_and_read():
        with db.atomic():
            sql.insert_rows(FinderFacet, fields, rows)
        return sorted(FinderFacet.select(*(getattr(FinderFacet, f) for f in fields))
                      .where(FinderFacet.attribute_id == "ODD").tuples(), key=repr)

    assert run_db(copy_and_read) == sorted(rows, key=repr)
    if run_db(is_postgres):
        assert chosen == [["text", "text", "text", "text", "int4"]]
        from app.models import Compatibility
        assert binary_types(list(Compatibility._meta.sorted_fields)) is None
