"""The catalog bundle import and export (import-format.md): validation with JSON paths, one
transaction, upsert by id, references across sections and to stored records, round trip."""
import copy
import datetime

import marshmallow as ma
import pytest

from app.db import db, is_postgres
from app.models import (
    Application,
    Compatibility,
    CompatibilityChange,
    Item,
    Site,
)
from app.services.auth import tokens as auth
from app.services.bundle import BundleError, export_bundle, import_bundle
from app.services.compat.item_state import refresh_items
from tests.bundle_data import full_bundle, row_counts
from tests.bundles import SELLER, TOKENS, base_bundle, item
from tests.compat.compat_data import compatibility_rows


def problems_of(run_db, bundle):
    with pytest.raises(BundleError) as caught:
        run_db(import_bundle, bundle)
    return caught.value.problems


def test_import_reports_the_records_of_each_section(load_bundle):
    report = load_bundle(full_bundle())
    assert report["products"] == 60
    assert report["items"] == 6
    assert report["compatibilities"] == 3
    assert report["charts"] == 2
    assert "orders" in report and "claims" in report


def test_structural_problems_are_all_reported_with_json_paths(run_db):
    bundle = base_bundle()
    del bundle["products"][1]["domain_id"]
    bundle["items"][0]["status"] = "sold"
    bundle["items"][2]["seller_id"] = "1001"
    bundle["domain_compatibilities"][1]["compatibilities"][0]["categories"][0]["note_status"] = "ON"
    bundle["charts"] = [{"id": "1", "names": {}, "site_id": "MLA", "domain_id": "SNEAKERS", "type": "OTHER",
                         "main_attribute_id": "EU_SIZE"}]
    bundle["vehicles"] = []
    problems = problems_of(run_db, bundle)
    assert "products[1].domain_id: missing data for required field" in problems
    assert any(p.startswith("items[0].status: must be one of active") for p in problems)
    assert "items[2].seller_id: not a valid integer" in problems
    assert any(p.startswith("domain_compatibilities[1].compatibilities[0].categories[0].note_status: must be one of")
               for p in problems)
    assert any(p.startswith("charts[0].type: must be one of BRAND, STANDARD, SPECIFIC") for p in problems)
    assert any(p.startswith("vehicles: unknown section") for p in problems)


def test_unknown_fields_of_a_record_are_problems(run_db):
    bundle = base_bundle()
    bundle["products"][0]["colour"] = "red"
    assert problems_of(run_db, bundle) == ["products[0].colour: unknown field"]


def test_reference_problems_name_the_path_and_the_missing_record(run_db):
    bundle = full_bundle()
    bundle["products"][12]["domain_id"] = "MLA-XYZ"
    bundle["products"][1]["parent_id"] = "MLA8999"
    bundle["items"].append(item("MLA110", "MLB2201", "MLA-BRAKE_PADS"))
    bundle["items"].append(item("MLA111", "MLA1747", "MLA-BRAKE_PADS", seller=4242))
    bundle["compatibilities"].append({"item_id": "MLA101", "product_id": "MLA8001"})
    bundle["compatibilities"].append({"item_id": "MLA101", "product_id": "MLB90001"})
    bundle["compatibilities"].append({"item_id": "MLA999", "product_id": "MLA90001"})
    bundle["suggestions"].append({"item_id": "MLA101", "product_id": "MLA00000"})
    bundle["claims"].append({"id": 5003002, "order_id": 1})
    bundle["technical_specs"].append({"domain_id": "MLA-NOPE", "section": "SPECIFICATIONS"})
    problems = problems_of(run_db, bundle)
    assert "products[12].domain_id: unknown domain MLA-XYZ" in problems
    assert "products[1].parent_id: unknown product MLA8999" in problems
    assert "items[6].category_id: category MLB2201 belongs to site MLB, not MLA" in problems
    assert "items[7].seller_id: unknown user 4242" in problems
    assert ("compatibilities[3].product_id: product MLA8001 is a parent product; "
            "only child products can be compatible") in problems
    assert ("compatibilities[4].product_id: product MLB90001 belongs to site MLB, not the item's site MLA"
            in problems)
    assert "compatibilities[5].item_id: unknown item MLA999" in problems
    assert "suggestions[1].product_id: unknown product MLA00000" in problems
    assert "claims[1].order_id: unknown order 1" in problems
    assert "technical_specs[2].domain_id: unknown domain MLA-NOPE" in problems
    assert len(problems) == 10


def test_structural_and_reference_problems_are_reported_together(run_db):
    bundle = base_bundle()
    bundle["items"][0]["title"] = ""
    bundle["items"][1]["category_id"] = "MLA0000"
    problems = problems_of(run_db, bundle)
    assert any(p.startswith("items[0].title:") for p in problems)
    assert "items[1].category_id: unknown category MLA0000" in problems


def test_duplicate_ids_inside_a_section_are_problems(run_db):
    bundle = full_bundle()
    bundle["products"].append(copy.deepcopy(bundle["products"][3]))
    bundle["compatibilities"].append({"item_id": "MLA100", "product_id": "MLA90002"})
    bundle["products"][0]["attributes"].append({"id": "BRAND", "value_name": "Otra"})
    problems = problems_of(run_db, bundle)
    assert f"products[60].id: repeated {bundle['products'][3]['id']} (first at products[3])" in problems
    assert ("compatibilities[3]: repeated item and product (MLA100, MLA90002) (first at compatibilities[1])"
            in problems)
    assert "products[0].attributes[3].id: repeated attribute BRAND" in problems


def test_universal_and_product_id_are_mutually_exclusive(run_db):
    bundle = full_bundle()
    bundle["compatibilities"] = [{"item_id": "MLA102", "universal": True, "product_id": "MLA90001"},
                                 {"item_id": "MLA102"}]
    problems = problems_of(run_db, bundle)
    assert "compatibilities[0].product_id: give either product_id or universal: true, not both" in problems
    assert "compatibilities[1].product_id: give product_id, or universal: true" in problems


def test_restrictions_must_be_values_of_the_domain_pair(run_db):
    bundle = full_bundle()
    bundle["compatibilities"][0]["restrictions"] = [
        {"attribute_id": "POSITION", "attribute_values": [{"values": [{"value_id": "999"}]}]},
        {"attribute_id": "SIDE", "attribute_values": [{"values": [{"value_id": "1"}]}]}]
    problems = problems_of(run_db, bundle)
    assert problems == [
        "compatibilities[0].restrictions[0].attribute_values[0].values[0].value_id: unknown POSITION value 999",
        "compatibilities[0].restrictions[1].attribute_id: SIDE is not a restriction of domains "
        "MLA-CARS_AND_VANS and MLA-BRAKE_PADS"]


def test_a_bundle_with_one_bad_record_writes_nothing(run_db):
    bundle = full_bundle()
    bundle["claims"][0]["order_id"] = 42
    problems_of(run_db, bundle)
    assert all(count == 0 for count in run_db(row_counts).values())


def test_a_failed_reimport_leaves_the_stored_records_untouched(load_bundle, run_db):
    load_bundle(base_bundle())
    before = run_db(export_bundle)
    bundle = base_bundle()
    bundle["sites"][0]["name"] = "Argentina nueva"
    bundle["products"][0]["attributes"] = []
    bundle["items"][0]["domain_id"] = "MLA-NOPE"
    problems_of(run_db, bundle)
    assert run_db(export_bundle) == before


def test_references_may_point_to_records_already_in_the_database(load_bundle, run_db):
    load_bundle(base_bundle())
    report = load_bundle({"items": [item("MLA150", "MLA1747", "MLA-BRAKE_PADS")],
                          "compatibilities": [{"item_id": "MLA150", "product_id": "MLA90004"}],
                          "orders": [{"id": 7, "item_id": "MLA150", "date_created": "2026-02-01T10:00:00Z"}]})
    assert report == {"items": 1, "compatibilities": 1, "orders": 1}
    problems = problems_of(run_db, {"compatibilities": [{"item_id": "MLA150", "product_id": "MLA8002"}],
                                    "claims": [{"id": 1, "order_id": 8}]})
    assert problems == ["compatibilities[0].product_id: product MLA8002 is a parent product; "
                        "only child products can be compatible", "claims[0].order_id: unknown order 8"]


def test_application_without_secret_is_accepted_only_when_it_exists(load_bundle, run_db):
    record = {"client_id": "5501", "owner_id": SELLER, "redirect_uri": "https://example.org/other"}
    bundle = base_bundle()
    bundle["applications"] = [record]
    assert problems_of(run_db, bundle) == [
        "applications[0].client_secret: required: application 5501 does not exist yet"]
    load_bundle(base_bundle())
    load_bundle({"applications": [record]})
    stored = run_db(Application.get_by_id, "5501")
    assert (stored.secret_hash, stored.redirect_uri) == (auth.digest("s3cret"), "https://example.org/other")


def test_tokens_from_the_bundle_authenticate_their_user(load_bundle, run_db):
    load_bundle(full_bundle())
    assert run_db(auth.resolve_access_token, TOKENS[SELLER]) == SELLER
    assert run_db(auth.resolve_access_token, f"TEST-{SELLER}-second") == SELLER
    assert run_db(auth.resolve_access_token, "TEST-unknown") is None


def test_item_state_is_derived_after_import(load_bundle, run_db):
    load_bundle(full_bundle())
    state = run_db(lambda: {i.id: (i.compatibilities_count, i.is_universal, i.tag_incomplete, i.tag_pending)
                            for i in Item.select()})
    assert state["MLA100"] == (2, False, False, False)
    assert state["MLA101"] == (0, False, True, True)  # required, nothing yet, one suggestion
    assert state["MLA102"] == (1, True, False, False)  # universal; category does not require
    assert state["MLA103"][2] is False  # the exception lifts the incomplete tag
    assert state["MLA200"][2] is True


def row_versions():
    """PostgreSQL: each item's row version (xmin), which any UPDATE that sets the row changes."""
    if not is_postgres():
        return None
    return dict(db.execute_sql('SELECT id, xmin::text FROM "item"').fetchall())


def test_item_state_refresh_writes_only_the_items_whose_state_changed(load_bundle, run_db):
    load_bundle(full_bundle())
    ids = run_db(lambda: [i for (i,) in Item.select(Item.id).tuples()])
    versions = run_db(row_versions)
    assert run_db(refresh_items, ids, True) == 0  # recounted, all as stored: nothing written
    assert run_db(refresh_items, None) == 0
    assert run_db(row_versions) == versions
    # Behind its back:
    run_db(lambda: Compatibility.delete().where(Compatibility.item == Item.get_by_id("MLA100").key).execute())
    assert run_db(refresh_items, ids) == 1
    assert run_db(lambda: Item.get_by_id("MLA100").compatibilities_count) == 0
    assert run_db(refresh_items, ids) == 0


def test_every_section_is_optional(load_bundle, run_db):
    assert load_bundle({}) == {}
    load_bundle({"currencies": [{"id": "UYU", "description": "Peso uruguayo", "symbol": "$", "decimal_places": 2}],
                 "sites": [{"id": "MLU", "name": "Uruguay", "default_currency_id": "UYU"}]})
    assert run_db(Site.get_by_id, "MLU").language == "es"


def test_product_site_must_be_the_site_of_its_domain(run_db):
    bundle = base_bundle()
    bundle["products"][0]["site_id"] = "MLB"
    bundle["products"][1]["site_id"] = "MLX"
    problems = problems_of(run_db, bundle)
    assert "products[0].domain_id: domain MLA-CARS_AND_VANS belongs to site MLA, not MLB" in problems
    assert "products[1].site_id: unknown site MLX" in problems


def test_chart_row_ids_cannot_belong_to_another_stored_chart(load_bundle, run_db):
    load_bundle(full_bundle())
    chart = {"id": "777", "names": {"MLA": "Otra"}, "site_id": "MLA", "domain_id": "SNEAKERS",
             "type": "STANDARD", "main_attribute_id": "EU_SIZE",
             "rows": [{"id": "426237:1", "attributes": []}, {"attributes": []}]}
    assert problems_of(run_db, {"charts": [chart]}) == [
        "charts[0].rows[0].id: row id 426237:1 already belongs to chart 426237"]


def test_specific_chart_needs_its_seller(run_db):
    bundle = full_bundle()
    del bundle["charts"][1]["seller_id"]
    assert problems_of(run_db, bundle) == ["charts[1].seller_id: missing user"]


def test_a_bundle_that_is_not_an_object_is_one_problem(run_db):
    assert problems_of(run_db, []) == ["$: a bundle is a JSON object whose keys are section names"]
    assert problems_of(run_db, {"products": {}}) == ["products: must be a list of records"]


def test_compatibility_needs_a_rule_between_the_item_and_product_domains(load_bundle, run_db):
    bundle = base_bundle()
    bundle["domains"].append({"id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Motos"})
    bundle["products"] += [{"id": "MLA7001", "domain_id": "MLA-MOTORCYCLES", "name": "Honda"},
                           {"id": "MLA7002", "domain_id": "MLA-MOTORCYCLES", "name": "CG", "parent_id": "MLA7001"}]
    load_bundle(bundle)
    assert problems_of(run_db, {"compatibilities": [{"item_id": "MLA100", "product_id": "MLA7002"}]}) == [
        "compatibilities[0].product_id: items of domain MLA-BRAKE_PADS cannot be compatible with products of "
        "domain MLA-MOTORCYCLES (see domain_compatibilities)"]
    entry = base_bundle()["domain_compatibilities"][1]
    entry["compatibilities"].append({"compatible_domain_id": "MLA-MOTORCYCLES", "categories": [{"id": "MLA1747"}]})
    load_bundle({"domain_compatibilities": [entry],
                 "compatibilities": [{"item_id": "MLA100", "product_id": "MLA7002"}]})


def test_product_attribute_problems_have_their_own_paths(run_db):
    bundle = base_bundle()
    bundle["products"][0]["attributes"][1]["value_id"] = 62109
    bundle["products"][2]["attributes"][0] = {"value_name": "Volkswagen", "unit": "x"}
    bundle["products"][3] = "MLA8002"
    problems = problems_of(run_db, bundle)
    assert "products[0].attributes[1].value_id: not a valid string" in problems
    assert "products[2].attributes[0].id: missing data for required field" in problems
    assert "products[2].attributes[0].unit: unknown field" in problems
    assert "products[3]: invalid input type" in problems


def test_fast_product_check_agrees_with_the_schema():
    from schemas.bundle import BundleProductSchema

    schema = BundleProductSchema()
    valid = [*base_bundle()["products"][:3],
             {"id": "P1", "domain_id": "D", "name": "N", "site_id": None, "parent_id": None},
             {"id": "P2", "domain_id": "D", "name": "N", "attributes": [{"id": "A", "value_id": None}]}]
    for record in valid:
        assert BundleProductSchema.fast_load(record) == schema.load(record)
    invalid = [{"id": "P", "domain_id": "D"}, {"id": "P", "domain_id": "D", "name": ""},
               {"id": 1, "domain_id": "D", "name": "N"}, {"id": "P", "domain_id": "D", "name": "N", "x": 1},
               {"id": "P", "domain_id": "D", "name": "N", "attributes": None},
               {"id": "P", "domain_id": "D", "name": "N", "attributes": [{"id": "A"}, {"id": "A"}]},
               {"id": "P", "domain_id": "D", "name": "N", "attributes": [{"value_id": "1"}]},
               {"id": "P", "domain_id": "D", "name": "N", "site_id": "MLAX"}, ["P"]]
    for record in invalid:
        assert BundleProductSchema.fast_load(record) is None
        with pytest.raises(ma.ValidationError):
            schema.load(record)


def test_fast_compatibility_check_agrees_with_the_schema():
    from schemas.bundle import BundleCompatibilitySchema

    schema = BundleCompatibilitySchema()
    restriction = {"attribute_id": "POSITION", "attribute_values": [{"values": [{"value_id": "1", "value_name": "x"},
                                                                                 {"value_id": "2"}]}]}
    valid = [{"item_id": "I", "product_id": "P"}, {"item_id": "I", "universal": True, "id": None, "note": ""},
             {"id": "bcbd413f-cd65-0e0f-88c9-5eb4aebb5372", "item_id": "I", "product_id": "P", "universal": False,
              "source": "SELLER",
              "creation_source": "AUTOMATION", "note": "n" * 500, "note_status": "APPROVED",
              "restrictions": [restriction], "date_created": "2026-01-10T12:00:00-03:00"},
             {"item_id": "I", "product_id": "P", "restrictions": None, "note_status": None, "date_created": None}]
    for record in valid:
        assert BundleCompatibilitySchema.fast_load(record) == schema.load(record)
    invalid = [{"item_id": "I"}, {"product_id": "P"}, {"item_id": "I", "product_id": "P", "universal": True},
               {"item_id": "I", "universal": False}, {"item_id": "I", "product_id": "P", "universal": None},
               {"item_id": "I", "product_id": "P", "universal": "true"}, {"item_id": "", "product_id": "P"},
               {"item_id": "I", "product_id": "P" * 41}, {"item_id": "I", "product_id": 7},
               {"item_id": "I", "product_id": "P", "source": None}, {"item_id": "I", "product_id": "P", "source": "X"},
               {"item_id": "I", "product_id": "P", "note": "n" * 501}, {"item_id": "I", "product_id": "P", "x": 1},
               {"item_id": "I", "product_id": "P", "note_status": "NEW"}, {"item_id": None, "product_id": "P"},
               {"id": "c" * 36, "item_id": "I", "product_id": "P"},
               {"id": "bcbd413f", "item_id": "I", "product_id": "P"},
               {"item_id": "I", "product_id": "P", "date_created": "yesterday"},
               {"item_id": "I", "product_id": "P", "restrictions": [{"attribute_id": "POSITION"}]},
               {"item_id": "I", "product_id": "P", "restrictions": [{**restriction, "attribute_values": []}]},
               {"item_id": "I", "product_id": "P", "restrictions": [{**restriction, "x": 1}]},
               {"item_id": "I", "product_id": "P", "restrictions": [
                   {**restriction, "attribute_values": [{"values": [{"value_name": "x"}]}]}]}, ["I"], None]
    for record in invalid:
        assert BundleCompatibilitySchema.fast_load(record) is None
        with pytest.raises(ma.ValidationError):
            schema.load(record)
    # Not plainly valid, though the schema accepts them: load() decides, as before.
    for record in [{"item_id": "I", "product_id": "P", "universal": 0}, {"item_id": "I\x00", "product_id": "P"},
                   {"id": "BCBD413F-CD65-0E0F-88C9-5EB4AEBB5372", "item_id": "I", "product_id": "P"},
                   {"item_id": "I", "product_id": "P", "note": "ABS \udc00"},
                   {"item_id": "I", "product_id": "P", "restrictions": [
                       {**restriction, "attribute_values": [{"values": [{"value_id": "1", "value_name": "\ud800"}]}]}]},
                   {"item_id": "I", "product_id": "P", "restrictions": [
                       {**restriction, "attribute_values": [{"values": [{"value_id": "1", "value_name": ""}]}]}]}]:
        assert BundleCompatibilitySchema.fast_load(record) is None


def test_compatibilities_without_an_id_get_time_ordered_uuids(load_bundle, run_db):
    """Version 7: each import's new ids sort after the ones before it (the primary key is appended
    to, not rewritten all over), and a compatibility that keeps its (item, product) keeps its id."""
    import time
    import uuid


    bundle = full_bundle()
    load_bundle(bundle)
    first = dict(run_db(lambda: {(c.item_id, c.product_id): c.id for c in compatibility_rows()}))
    made = first[("MLA100", "MLA90002")]
    assert first[("MLA100", "MLA90001")] == bundle["compatibilities"][0]["id"]  # given ids stay as given
    assert uuid.UUID(made).version == 7 and str(uuid.UUID(made)) == made
    time.sleep(0.002)
    load_bundle({"compatibilities": [{"item_id": "MLA100", "product_id": "MLA90002"},
                                     {"item_id": "MLA101", "product_id": "MLA90002"}]})
    second = dict(run_db(lambda: {(c.item_id, c.product_id): c.id for c in compatibility_rows()}))
    assert second[("MLA100", "MLA90002")] == made
    later = second[("MLA101", "MLA90002")]
    assert uuid.UUID(later).version == 7 and later > max(first[("MLA100", "MLA90002")], first[("MLA102", None)])


def test_imported_timestamps_are_stored_exactly_given_or_as_the_imports_time(load_bundle, run_db):
    """Each timestamp a COPY writes (PostgreSQL) goes as text formatted once per distinct value:
    a given one keeps its microseconds and its UTC conversion; the others, and the change records,
    all hold the one time of the import."""
    bundle = full_bundle()
    bundle["compatibilities"][0]["date_created"] = "2026-01-12T10:00:00.123456-03:00"
    started = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    load_bundle(bundle)
    finished = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)

    def stored():
        rows = {c.product_id: c.date_created for c in compatibility_rows()}
        changes = {c.date_created for c in CompatibilityChange.select()}
        return rows, changes

    rows, changes = run_db(stored)
    assert rows["MLA90001"] == datetime.datetime(2026, 1, 12, 13, 0, 0, 123456)
    assert rows["MLA90002"] == rows[None] and started <= rows[None] <= finished
    (change,) = changes  # the import's records share its one time
    assert started <= change <= finished
