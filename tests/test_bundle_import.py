"""The catalog bundle import and export (import-format.md): validation with JSON paths, one
transaction, upsert by id, references across sections and to stored records, round trip."""
import copy

import pytest

from app.models import (
    ALL_MODELS,
    Application,
    ChartFilterValue,
    ChartRow,
    Compatibility,
    Item,
    Order,
    Product,
    ProductAttribute,
    RestrictionAttribute,
    RestrictionValue,
    Site,
)
from app.services import auth
from app.services.bundle import BundleError, export_bundle, import_bundle
from tests.bundle_data import full_bundle
from tests.bundles import SELLER, TOKENS, base_bundle, item


def problems_of(run_db, bundle):
    with pytest.raises(BundleError) as caught:
        run_db(import_bundle, bundle)
    return caught.value.problems


def row_counts():
    return {model.__name__: model.select().count() for model in ALL_MODELS}


def wipe():
    for model in reversed(ALL_MODELS):
        model.delete().execute()


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

    def counts():
        return row_counts()

    assert all(count == 0 for count in run_db(counts).values())


def test_a_failed_reimport_leaves_the_stored_records_untouched(load_bundle, run_db):
    load_bundle(base_bundle())
    before = run_db(export_bundle)
    bundle = base_bundle()
    bundle["sites"][0]["name"] = "Argentina nueva"
    bundle["products"][0]["attributes"] = []
    bundle["items"][0]["domain_id"] = "MLA-NOPE"
    problems_of(run_db, bundle)
    assert run_db(export_bundle) == before


def test_importing_twice_leaves_the_database_as_after_the_first_import(load_bundle, run_db):
    load_bundle(full_bundle())
    first, counts = run_db(export_bundle), run_db(row_counts)
    codes = run_db(lambda: sorted(RestrictionValue.select(RestrictionValue.id, RestrictionValue.value_id).tuples()))
    load_bundle(full_bundle())
    assert run_db(export_bundle) == first
    assert run_db(row_counts) == counts
    assert run_db(lambda: sorted(
        RestrictionValue.select(RestrictionValue.id, RestrictionValue.value_id).tuples())) == codes


def test_restriction_codes_stay_when_values_are_added_or_removed(load_bundle, run_db):
    load_bundle(base_bundle())

    def codes():
        query = (RestrictionValue.select(RestrictionValue.value_id, RestrictionValue.id, RestrictionAttribute.id)
                 .join(RestrictionAttribute))
        return {value_id: (value_code, attribute_code) for value_id, value_code, attribute_code in query.tuples()}

    before = run_db(codes)
    bundle = {"restriction_values": [{"main_domain_id": "MLA-CARS_AND_VANS", "secondary_domain_id": "MLA-BRAKE_PADS",
                                      "attributes_values": [{"attribute_id": "POSITION", "values": [
                                          {"value_id": "13701105", "value_name": "Trasera"},
                                          {"value_id": "13701106", "value_name": "Central"}]}]}]}
    load_bundle(bundle)
    after = run_db(codes)
    assert set(after) == {"13701105", "13701106"}
    assert after["13701105"] == before["13701105"]
    assert after["13701106"][1] == before["13701105"][1]


def test_reimport_replaces_a_products_attributes(load_bundle, run_db):
    load_bundle(base_bundle())
    product = {"id": "MLA90001", "domain_id": "MLA-CARS_AND_VANS", "name": "Volkswagen Gol nuevo",
               "parent_id": "MLA8001", "attributes": [{"id": "BRAND", "value_id": "60249", "value_name": "VW"}]}
    load_bundle({"products": [product]})
    rows = run_db(lambda: list(ProductAttribute.select().where(ProductAttribute.product == "MLA90001").dicts()))
    assert [(r["attribute_id"], r["value_key"], r["is_child"], r["domain_id"]) for r in rows] == [
        ("BRAND", "vw", True, "MLA-CARS_AND_VANS")]
    stored = run_db(Product.get_by_id, "MLA90001")
    assert (stored.name, stored.site_id) == ("Volkswagen Gol nuevo", "MLA")


def test_reimport_replaces_a_charts_rows_and_filter_values(load_bundle, run_db):
    bundle = full_bundle()
    load_bundle(bundle)
    chart = bundle["charts"][0]
    chart["rows"] = chart["rows"][:1]
    chart["attributes"] = [{"id": "GENDER", "values": [{"id": "339665", "name": "Mujer"}]}]
    load_bundle({"charts": [chart]})
    rows = run_db(lambda: list(ChartRow.select(ChartRow.id, ChartRow.position)
                               .where(ChartRow.chart == "426237").tuples()))
    assert rows == [("426237:1", 1)]
    filters = run_db(lambda: list(ChartFilterValue.select(
        ChartFilterValue.attribute_id, ChartFilterValue.value_id, ChartFilterValue.value_key)
        .where(ChartFilterValue.chart == "426237").tuples()))
    assert filters == [("GENDER", "339665", "mujer")]


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


def test_order_of_sections_and_records_does_not_matter(load_bundle, run_db):
    bundle = full_bundle()
    reordered = {name: list(reversed(bundle[name])) for name in reversed(list(bundle))}
    load_bundle(reordered)
    in_order = run_db(export_bundle)
    run_db(wipe)
    load_bundle(bundle)
    assert run_db(export_bundle)["products"] == in_order["products"]
    assert run_db(export_bundle)["domain_compatibilities"] == in_order["domain_compatibilities"]


def test_export_imported_into_an_empty_database_gives_the_same_export(load_bundle, run_db):
    load_bundle(full_bundle())
    exported = run_db(export_bundle)
    counts = run_db(row_counts)
    run_db(wipe)
    load_bundle(exported)
    assert run_db(export_bundle) == exported
    counts.update(AccessToken=0)  # tokens are not exported: only their hashes are stored
    assert run_db(row_counts) == counts


def test_exported_application_keeps_its_secret(load_bundle, run_db):
    load_bundle(base_bundle())
    exported = run_db(export_bundle)
    assert "client_secret" not in exported["applications"][0]
    run_db(wipe)
    load_bundle(exported)
    stored = run_db(Application.get_by_id, "5501")
    assert stored.secret_hash == auth.digest("s3cret")


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


def test_compatibility_defaults_and_ids(load_bundle, run_db):
    load_bundle(full_bundle())
    rows = run_db(lambda: {(c.item_id, c.product_id): c for c in Compatibility.select()})
    generated = rows[("MLA100", "MLA90002")]
    assert (generated.source, generated.creation_source, generated.note_status) == ("CATALOGO", "DEFAULT", None)
    assert generated.domain_id == "MLA-CARS_AND_VANS" and len(generated.id) == 36
    assert rows[("MLA100", "MLA90001")].id == "bcbd413f-cd65-0e0f-88c9-5eb4aebb5372"
    assert rows[("MLA102", None)].universal is True
    bundle = full_bundle()
    bundle["compatibilities"][1]["note"] = "Con ABS"
    load_bundle(bundle)
    again = run_db(lambda: {(c.item_id, c.product_id): c for c in Compatibility.select()})
    assert again[("MLA100", "MLA90002")].id == generated.id  # upserted by (item, product)
    assert again[("MLA100", "MLA90002")].note_status == "PENDING"


def test_dates_are_stored_as_naive_utc_and_exported_with_z(load_bundle, run_db):
    bundle = base_bundle()
    bundle["items"][0]["date_created"] = "2026-01-10T09:00:00-03:00"
    load_bundle(bundle)
    stored = run_db(Item.get_by_id, "MLA100")
    assert stored.date_created.isoformat() == "2026-01-10T12:00:00"
    assert run_db(export_bundle)["items"][0]["date_created"] == "2026-01-10T12:00:00Z"
    load_bundle(full_bundle())
    order = run_db(Order.get_by_id, 2000004512)
    assert order.snapshot["date_created"] == "2026-02-01T10:00:00Z"
    assert order.snapshot_product_id == "MLA90001"


def test_every_section_is_optional(load_bundle, run_db):
    assert load_bundle({}) == {}
    load_bundle({"currencies": [{"id": "UYU", "description": "Peso uruguayo", "symbol": "$", "decimal_places": 2}],
                 "sites": [{"id": "MLU", "name": "Uruguay", "default_currency_id": "UYU"}]})
    assert run_db(Site.get_by_id, "MLU").language == "es"


def test_domain_discovery_without_category_is_upserted_not_duplicated(load_bundle, run_db):
    load_bundle(full_bundle())
    bundle = full_bundle()
    bundle["domain_discovery"][1]["terms"] = ["pastillas"]
    load_bundle(bundle)
    exported = run_db(export_bundle)["domain_discovery"]
    assert [d["terms"] for d in exported if d["domain_id"] == "MLA-BRAKE_PADS"] == [["pastillas"]]


def test_domain_compatibility_entry_replaces_its_rules_and_keeps_unchanged_ids(load_bundle, run_db):
    from app.models import CategoryRule, CompatibilityRule

    bundle = base_bundle()
    bundle["domain_compatibilities"][1]["compatibilities"].append(
        {"compatible_domain_id": "MLA-SPARK_PLUGS", "categories": [{"id": "MLA1747"}]})
    load_bundle(bundle)

    def rules():
        return {(r.domain_id, r.compatible_domain_id): r.id for r in CompatibilityRule.select()}

    before = run_db(rules)
    load_bundle({"domain_compatibilities": [base_bundle()["domain_compatibilities"][1]]})
    after = run_db(rules)
    assert ("MLA-BRAKE_PADS", "MLA-SPARK_PLUGS") not in after
    assert after[("MLA-BRAKE_PADS", "MLA-CARS_AND_VANS")] == before[("MLA-BRAKE_PADS", "MLA-CARS_AND_VANS")]
    assert run_db(CategoryRule.select().count) == 4


def test_changing_category_rules_recomputes_the_incomplete_tag(load_bundle, run_db):
    load_bundle(base_bundle())
    assert run_db(Item.get_by_id, "MLA102").tag_incomplete is False
    entry = base_bundle()["domain_compatibilities"][2]
    entry["compatibilities"][0]["categories"][0]["required"] = True
    load_bundle({"domain_compatibilities": [entry]})
    assert run_db(Item.get_by_id, "MLA102").tag_incomplete is True


def test_technical_specs_are_upserted_by_domain_section_and_when(load_bundle, run_db):
    from app.models import TechnicalSpec

    bundle = full_bundle()
    load_bundle(bundle)
    bundle["technical_specs"][1]["when"] = {"GENDER": "339666"}
    bundle["technical_specs"][1]["input"] = {"groups": [{"id": "NEW"}]}
    load_bundle(bundle)
    sheets = run_db(lambda: [(s.section, s.when_key, s.input) for s in TechnicalSpec.select()
                             .order_by(TechnicalSpec.section)])
    assert sheets == [("GRIDS", '{"GENDER":"339666"}', {"groups": [{"id": "NEW"}]}),
                      ("SPECIFICATIONS", "{}", {"groups": []})]


def test_reimport_without_tokens_keeps_the_stored_ones(load_bundle, run_db):
    load_bundle(base_bundle())
    load_bundle({"users": [{"id": SELLER, "nickname": "TALLER_NORTE", "site_id": "MLA"}]})
    assert run_db(auth.resolve_access_token, TOKENS[SELLER]) == SELLER


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
