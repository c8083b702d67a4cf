"""F3: a page of the child products that match every known attribute, sorted, with the exact total."""
import pytest

from app.models import Product, ProductKeyOrder
from app.models import finder as stored
from app.services.row_keys.order import keys_follow_ids
from tests.finder.data import AUTH, DOMAIN, children, expected_search_ids, finder_bundle
from tests.helpers import recorded_statements

SEARCH = "/catalog_compatibilities/products_search/chunks"


def search(client, **body):
    return client.post(SEARCH, headers=AUTH, json={"domain_id": DOMAIN, "site_id": "MLA", **body})


def test_results_carry_the_product_and_its_attributes(client, bundle):
    body = search(client, known_attributes=[{"id": "MODEL", "value_ids": ["62200"]}], limit=1).get_json()
    assert body["paging"] == {"total": 3, "offset": 0, "limit": 1}
    assert body["results"] == [{
        "id": "MLA900053", "name": "Toyota Hilux 1.6 Trendline 2014", "parent_id": "MLA700078", "attributes": [
            {"id": "BRAND", "name": "Marca", "values": [{"id": "60297", "name": "Toyota"}]},
            {"id": "MODEL", "name": "Modelo", "values": [{"id": "62200", "name": "Hilux"}]},
            {"id": "VEHICLE_YEAR", "name": "Año", "values": [{"id": "2014", "name": "2014"}]},
            {"id": "SHORT_VERSION", "name": "Versión", "values": [{"id": "70001", "name": "1.6 Trendline"}]},
            {"id": "FUEL_TYPE", "name": "Tipo de combustible", "values": [{"id": "91292", "name": "Diésel"}]}]}]


def _all_ids(client, **body):
    ids, offset = [], 0
    while True:
        page = search(client, offset=offset, limit=7, **body).get_json()
        ids += [r["id"] for r in page["results"]]
        offset += 7
        if offset >= page["paging"]["total"]:
            assert len(ids) == page["paging"]["total"]
            return ids


CASES = [
    {},
    {"known_attributes": [{"id": "BRAND", "value_ids": ["60249"]}]},
    {"known_attributes": [{"id": "BRAND", "value_ids": ["60249", "61828"]},
                          {"id": "VEHICLE_YEAR", "value_id": "2014"}]},
    {"known_attributes": [{"id": "BRAND", "value_ids": ["60249"]}, {"id": "MODEL", "value_ids": ["62109", "62110"]},
                          {"id": "VEHICLE_YEAR", "value_ids": ["2011", "2012", "2013"]}]},
    {"known_attributes": [{"id": "BRAND", "value_ids": ["61828"]}, {"id": "MODEL", "value_ids": ["66092"]}]},
    {"known_attributes": [{"id": "BRAND", "value_ids": ["61828"]}, {"id": "MODEL", "value_ids": ["62200"]}]},
]
SORTS = [None, {"attribute_id": "SHORT_VERSION", "order": "ASC"}, {"attribute_id": "FUEL_TYPE", "order": "DESC"},
         {"attribute_id": "VEHICLE_YEAR"}]


@pytest.mark.parametrize("popular_from", [1, 6, 1000])
def test_pages_and_totals_are_exact_for_every_shape(client, load_bundle, monkeypatch, popular_from):
    monkeypatch.setattr(stored, "POPULAR_VALUE", popular_from)
    bundle = finder_bundle()
    load_bundle(bundle)
    for case in CASES:
        for sort in SORTS:
            body = {**case, **({"sort": sort} if sort else {})}
            assert _all_ids(client, **body) == expected_search_ids(bundle, case.get("known_attributes", ()), sort), body


def test_pages_are_by_id_whatever_order_the_products_got_their_keys_in(client, load_bundle, run_db):
    """The attribute rows name their products by key. A catalog whose greater ids were stored first
    has keys out of the ids' order (recorded so: the pages sort the ids); still paged by id, and a
    sort's ties broken by id."""
    bundle = finder_bundle()
    products = sorted(bundle["products"], key=lambda p: p["id"])
    parents = [p for p in products if not p.get("parent_id")]
    later = [p for p in products if p.get("parent_id")][:len(products) // 3]
    load_bundle({**bundle, "products": [p for p in products if p not in later]})
    load_bundle({"products": parents + later})
    ids = sorted(p["id"] for p in children(bundle))
    keys = run_db(lambda: [key for (key,) in Product.select(Product.key).where(Product.id.in_(ids))
                           .order_by(Product.id).tuples()])
    assert keys != sorted(keys)  # the keys are not in the ids' order
    assert not run_db(keys_follow_ids, DOMAIN)
    for case in CASES:
        for sort in SORTS:
            body = {**case, **({"sort": sort} if sort else {})}
            assert _all_ids(client, **body) == expected_search_ids(bundle, case.get("known_attributes", ()), sort), body


def test_a_page_walks_the_index_in_key_order_only_where_keys_follow_ids(client, load_bundle, run_db):
    """Keys in the ids' order (one import): the page is read in the index's order, no product's id
    looked up; out of order (above): each matching product's id is read to sort by it."""
    bundle = finder_bundle()
    load_bundle(bundle)
    assert run_db(keys_follow_ids, DOMAIN)
    body = {"known_attributes": [{"id": "BRAND", "value_ids": ["60249"]}], "offset": 2, "limit": 3}
    with recorded_statements() as seen:
        ids = [r["id"] for r in search(client, **body).get_json()["results"]]
    assert ids == expected_search_ids(bundle, body["known_attributes"], None)[2:5]
    paged = [sql for sql in seen if 'FROM "product_attribute" AS "d"' in sql]
    assert paged and not [sql for sql in paged if '"paged"' in sql]
    run_db(lambda: ProductKeyOrder.update(keys_follow_ids=False).execute())
    with recorded_statements() as seen:
        assert [r["id"] for r in search(client, **body).get_json()["results"]] == ids
    assert [sql for sql in seen if 'FROM "product_attribute" AS "d"' in sql and '"paged"' in sql]


def test_default_sort_is_by_id_and_only_child_products(client, bundle):
    ids = _all_ids(client)
    assert ids == sorted(p["id"] for p in children(bundle)) and all(i.startswith("MLA9") for i in ids)


def test_sort_descending_by_value_name_keeps_products_without_it_last(client, bundle):
    ids = _all_ids(client, sort={"attribute_id": "FUEL_TYPE", "order": "DESC"})
    fuels = {p["id"]: next((a["value_name"] for a in p["attributes"] if a["id"] == "FUEL_TYPE"), None)
             for p in children(bundle)}
    names = [fuels[i] for i in ids]
    first_missing = names.index(None)
    assert names[:first_missing] == sorted(n for n in names if n)[::-1] and set(names[first_missing:]) == {None}


def test_offset_beyond_the_results_answers_an_empty_page_with_the_total(client, bundle):
    body = search(client, offset=10_000).get_json()
    assert body == {"results": [], "paging": {"total": len(children(bundle)), "offset": 10_000, "limit": 50}}


@pytest.mark.parametrize("field, value", [("offset", 2.5), ("offset", "3"), ("limit", 2.7), ("limit", "3"),
                                          ("offset", True)])
def test_paging_in_the_body_takes_json_integers_only(client, bundle, field, value):
    """A JSON body's integers are numbers without a fraction: 2.5 or "3" is a 400, not a silent page."""
    response = search(client, **{field: value})
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "validation_error", body
    assert body["cause"][0]["field"] == field


def test_no_match_answers_total_zero(client, bundle):
    body = search(client, known_attributes=[{"id": "BRAND", "value_ids": ["0"]}, {"id": "MODEL", "value_id": "1"}])
    assert body.get_json() == {"results": [], "paging": {"total": 0, "offset": 0, "limit": 50}}


def test_site_must_be_the_domains(client, bundle):
    response = client.post(SEARCH, headers=AUTH, json={"domain_id": DOMAIN, "site_id": "MLB"})
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "site_mismatch" and "MLA" in body["message"]


@pytest.mark.parametrize("body, named", [
    ({"known_attributes": [{"id": "COLOR", "value_ids": ["1"]}]}, "COLOR"),
    ({"sort": {"attribute_id": "PRICE", "order": "ASC"}}, "PRICE"),
])
def test_attribute_the_domain_does_not_have_is_400_naming_it(client, bundle, body, named):
    response = search(client, **body)
    assert response.status_code == 400
    assert response.get_json()["error"] == "unknown_attribute" and named in response.get_json()["message"]


def test_repeated_known_attribute_is_400(client, bundle):
    response = search(client, known_attributes=[{"id": "BRAND", "value_ids": ["1"]},
                                                {"id": "BRAND", "value_ids": ["2"]}])
    assert response.status_code == 400 and response.get_json()["error"] == "repeated_attribute"


@pytest.mark.parametrize("body, field, text", [
    ({"limit": 201}, "limit", "between 1 and 200"), ({"limit": 0}, "limit", "between 1 and 200"),
    ({"offset": 10_001}, "offset", "between 0 and 10000"), ({"offset": -1}, "offset", "between 0 and 10000"),
    ({"sort": {"attribute_id": "BRAND", "order": "UP"}}, "sort.order", ""),
    ({"domain_id": None}, "domain_id", ""), ({"site_id": None}, "site_id", ""), ({"colour": "red"}, "colour", ""),
])
def test_out_of_range_or_malformed_is_400_with_the_error_object(client, bundle, body, field, text):
    payload = {"domain_id": DOMAIN, "site_id": "MLA", **body}
    payload = {k: v for k, v in payload.items() if v is not None}
    response = client.post(SEARCH, headers=AUTH, json=payload)
    error = response.get_json()
    assert response.status_code == 400 and error["error"] == "validation_error" and error["status"] == 400
    assert field in [c["field"] for c in error["cause"]] and text in error["message"]


def test_unknown_domain_is_404(client, bundle):
    response = client.post(SEARCH, headers=AUTH, json={"domain_id": "MLA-NOPE", "site_id": "MLA"})
    assert response.status_code == 404 and response.get_json()["error"] == "not_found"
