"""Re-importing and exporting bundles: upsert by id, children replaced, stable codes, round trip."""
from app.models import (
    Application,
    AttributeScope,
    ChartFilterValue,
    ChartRow,
    Item,
    Order,
    Product,
    ProductAttribute,
)
from app.models.catalog import RestrictionAttribute, RestrictionValue
from app.services.auth import tokens as auth
from app.services.bundle import export_bundle
from tests.bundle_data import full_bundle, row_counts, wipe
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.compat.compat_data import compatibility_rows


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
    rows = run_db(lambda: list(ProductAttribute.select(
        ProductAttribute.attribute_id, ProductAttribute.value_key, AttributeScope.is_child, AttributeScope.domain_id,
        AttributeScope.attribute_id.alias("scope_attribute")).join(AttributeScope).where(
        ProductAttribute.product == Product.get_by_id("MLA90001").key).dicts()))
    assert [(r["attribute_id"], r["value_key"], r["is_child"], r["domain_id"], r["scope_attribute"])
            for r in rows] == [("BRAND", "vw", True, "MLA-CARS_AND_VANS", "BRAND")]
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


def test_compatibility_defaults_and_ids(load_bundle, run_db):
    load_bundle(full_bundle())
    rows = run_db(lambda: {(c.item_id, c.product_id): c for c in compatibility_rows()})
    generated = rows[("MLA100", "MLA90002")]
    assert (generated.source, generated.creation_source, generated.note_status) == ("CATALOGO", "DEFAULT", None)
    assert len(generated.id) == 36
    assert rows[("MLA100", "MLA90001")].id == "bcbd413f-cd65-0e0f-88c9-5eb4aebb5372"
    assert rows[("MLA102", None)].universal is True
    bundle = full_bundle()
    bundle["compatibilities"][1]["note"] = "Con ABS"
    load_bundle(bundle)
    again = run_db(lambda: {(c.item_id, c.product_id): c for c in compatibility_rows()})
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


def test_items_new_and_stored_in_one_import(load_bundle, run_db):
    """New items are inserted (COPY on PostgreSQL) with the import's time for the dates they do not
    give; stored ones are upserted and keep theirs."""
    bundle = base_bundle()
    bundle["items"][0]["date_created"] = "2026-01-10T09:00:00-03:00"
    load_bundle(bundle)
    before = run_db(Item.get_by_id, "MLA100")
    again = base_bundle()
    again["items"][0]["title"] = "Pastillas renombradas"
    new = dict(again["items"][0], id="MLA777", title="Pastillas nuevas", deal_ids=["D1"])
    again["items"].append(new)
    load_bundle(again)
    stored, added = run_db(Item.get_by_id, "MLA100"), run_db(Item.get_by_id, "MLA777")
    assert (stored.title, stored.date_created) == ("Pastillas renombradas", before.date_created)
    assert (added.title, added.deal_ids, added.seller_id) == ("Pastillas nuevas", ["D1"], before.seller_id)
    assert added.date_created == added.last_updated and added.date_created > before.date_created
    assert stored.last_updated == before.last_updated  # not given: kept


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


def test_a_compatibility_id_given_to_another_product_moves_with_it(load_bundle, run_db):
    bundle = full_bundle()
    load_bundle(bundle)
    stored_id = run_db(lambda: next(c.id for c in compatibility_rows("MLA100") if c.product_id == "MLA90002"))
    bundle["compatibilities"][1:2] = [{"item_id": "MLA100", "product_id": "MLA90002"},
                                      {"id": stored_id, "item_id": "MLA100", "product_id": "MLA90003"}]
    load_bundle(bundle)
    rows = run_db(lambda: {c.product_id: c.id for c in compatibility_rows("MLA100")})
    assert rows["MLA90003"] == stored_id
    assert rows["MLA90002"] != stored_id and len(rows) == 3


def test_reimport_updates_changed_and_added_product_attributes(load_bundle, run_db):
    bundle = base_bundle()
    load_bundle(bundle)
    product = bundle["products"][1]
    product["attributes"][0] = {"id": "BRAND", "value_id": "60249", "value_name": "VW"}
    product["attributes"].append({"id": "ENGINE", "value_name": "1.6 MSI"})
    load_bundle({"products": [product]})
    rows = run_db(lambda: list(ProductAttribute.select(
        ProductAttribute.attribute_id, ProductAttribute.value_key, ProductAttribute.position)
        .where(ProductAttribute.product == Product.get_by_id(product["id"]).key)
        .order_by(ProductAttribute.position).tuples()))
    assert rows == [("BRAND", "vw", 0), ("MODEL", "gol", 1), ("VEHICLE_YEAR", "2010", 2),
                    ("SHORT_VERSION", "1.6 trendline", 3), ("ENGINE", "1.6 msi", 4)]
    exported = next(p for p in run_db(export_bundle)["products"] if p["id"] == product["id"])
    assert exported["attributes"] == [{"value_id": None, "value_name": None, **a} for a in product["attributes"]]


def test_texts_with_copy_format_characters_round_trip(load_bundle, run_db):
    """PostgreSQL loads new rows with COPY, whose text format escapes these characters."""
    text = "tab\there, back\\slash \\N, new\nline, cr\r, ñandú"
    bundle = full_bundle()
    bundle["products"][0]["name"] = text
    bundle["products"][0]["attributes"][0]["value_name"] = text
    bundle["compatibilities"] = [{**c, "note": text} for c in bundle["compatibilities"]]
    load_bundle(bundle)
    exported = run_db(export_bundle)
    product = next(p for p in exported["products"] if p["id"] == bundle["products"][0]["id"])
    assert product["name"] == text and product["attributes"][0]["value_name"] == text
    assert {c["note"] for c in exported["compatibilities"]} == {text}
