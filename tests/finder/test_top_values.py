"""F2: the values of an attribute among the matching child products, with exact counts, whichever
way the service counts them (stored counts, stored pair counts of popular values, or a join)."""
import itertools

import pytest

from app.models import finder as stored
from tests.finder.data import AUTH, DOMAIN, children, expected_top_values, finder_bundle
from tests.helpers import recorded_statements

CASCADE = ("BRAND", "MODEL", "VEHICLE_YEAR", "SHORT_VERSION", "FUEL_TYPE")


def top(client, attribute_id, known=(), **body):
    return client.post(f"/catalog_domains/{DOMAIN}/attributes/{attribute_id}/top_values", headers=AUTH,
                       json={"known_attributes": list(known), **body})


def test_without_known_attributes_counts_every_child_product_and_no_parent(client, bundle):
    answer = top(client, "BRAND").get_json()
    assert answer == expected_top_values(bundle, "BRAND")
    assert sum(v["metric"] for v in answer) == len(children(bundle))


def test_sorted_by_metric_descending_then_by_name(client, bundle):
    answer = top(client, "VEHICLE_YEAR").get_json()
    keys = [(-v["metric"], v["name"]) for v in answer]
    assert keys == sorted(keys) and len({v["metric"] for v in answer}) > 1


def test_known_attribute_by_value_id_or_value_ids(client, bundle):
    by_id = top(client, "MODEL", [{"id": "BRAND", "value_id": "61828"}]).get_json()
    assert by_id == [{"id": "66092", "name": "Berlingo", "metric": 8}, {"id": "67052", "name": "C3", "metric": 8}]
    both = top(client, "MODEL", [{"id": "BRAND", "value_ids": ["61828", "60297"]}]).get_json()
    assert both == expected_top_values(bundle, "MODEL", [{"id": "BRAND", "value_ids": ["61828", "60297"]}])
    assert {v["name"] for v in both} == {"C3", "Berlingo", "Hilux"}


def _cases(bundle):
    """Every cascade prefix, with one value and with two values of the last known attribute."""
    first = children(bundle)[0]
    values = {a["id"]: a["value_id"] for a in first["attributes"]}
    for depth in range(0, 4):
        known = [{"id": a, "value_ids": [values[a]]} for a in CASCADE[:depth]]
        for target in CASCADE:
            yield target, known
    yield "MODEL", [{"id": "VEHICLE_YEAR", "value_ids": ["2010", "2014", "1999"]}]
    yield "FUEL_TYPE", [{"id": "BRAND", "value_ids": ["60249", "61828"]}, {"id": "VEHICLE_YEAR", "value_ids": ["2015"]}]


@pytest.mark.parametrize("popular_from", [1, 6, 1000])
def test_counts_are_exact_whichever_way_they_are_counted(client, load_bundle, monkeypatch, popular_from):
    """popular_from 1: every known value is answered from stored pair counts; 1000: none is (a join);
    6: a mix, so one request adds stored and counted parts."""
    monkeypatch.setattr(stored, "POPULAR_VALUE", popular_from)
    bundle = finder_bundle()
    load_bundle(bundle)
    wrong = []
    for target, known in _cases(bundle):
        answer = top(client, target, known, limit=1000).get_json()
        if answer != expected_top_values(bundle, target, known, limit=1000):
            wrong.append((target, known, answer))
    assert not wrong


def test_known_attribute_may_be_the_attribute_asked_for(client, bundle):
    known = [{"id": "BRAND", "value_ids": ["61828", "60297"]}]
    assert top(client, "BRAND", known).get_json() == expected_top_values(bundle, "BRAND", known)


def test_no_match_is_an_empty_list(client, bundle):
    response = top(client, "MODEL", [{"id": "BRAND", "value_id": "99999"}])
    assert response.status_code == 200 and response.get_json() == []
    conflicting = top(client, "SHORT_VERSION", [{"id": "BRAND", "value_id": "60297"},
                                                {"id": "MODEL", "value_id": "62109"}])
    assert conflicting.get_json() == []


def test_limit_defaults_to_50_and_is_kept(client, load_bundle):
    bundle = finder_bundle()
    bundle["products"] += [{"id": f"MLA6{n:05d}", "domain_id": DOMAIN, "parent_id": "MLA700000", "name": f"V {n}",
                            "attributes": [{"id": "DOORS", "value_id": f"D{n}", "value_name": f"{n} puertas"}]}
                           for n in range(60)]
    load_bundle(bundle)
    assert len(top(client, "DOORS").get_json()) == 50
    assert len(top(client, "DOORS", limit=7).get_json()) == 7
    assert len(top(client, "DOORS", limit=1000).get_json()) == 60


@pytest.mark.parametrize("limit", [0, 1001, "many", 2.7, "3", True])
def test_limit_out_of_range_is_400(client, bundle, limit):
    response = top(client, "BRAND", limit=limit)
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "validation_error"
    assert body["cause"][0]["field"] == "limit"
    if limit == 1001:
        assert "between 1 and 1000" in body["message"]


def test_attribute_the_domain_does_not_have_is_400_naming_it(client, bundle):
    response = top(client, "COLOR")
    assert response.status_code == 400
    body = response.get_json()
    assert body["error"] == "unknown_attribute" and "COLOR" in body["message"]
    known = top(client, "MODEL", [{"id": "BRAND", "value_id": "60249"}, {"id": "WHEELS", "value_id": "4"}])
    assert known.status_code == 400 and "WHEELS" in known.get_json()["message"]
    assert known.get_json()["cause"][0]["field"] == "known_attributes.1.id"


def test_repeated_known_attribute_is_400_naming_it(client, bundle):
    response = top(client, "MODEL", [{"id": "BRAND", "value_id": "60249"}, {"id": "BRAND", "value_id": "61828"}])
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "repeated_attribute" and "BRAND" in body["message"]


@pytest.mark.parametrize("known", [
    {"id": "BRAND"}, {"id": "BRAND", "value_id": "1", "value_ids": ["1"]}, {"id": "BRAND", "value_ids": []},
    {"id": "BRAND", "value_name": "Volkswagen"}])
def test_known_attribute_needs_value_id_or_value_ids(client, bundle, known):
    response = top(client, "MODEL", [known])
    assert response.status_code == 400 and response.get_json()["error"] == "validation_error"


def test_unknown_domain_is_404(client, bundle):
    response = client.post("/catalog_domains/MLA-NOPE/attributes/BRAND/top_values", headers=AUTH, json={})
    assert response.status_code == 404 and response.get_json()["error"] == "not_found"


def test_every_pair_of_known_attributes_counts_exactly(client, bundle):
    first = children(bundle)[3]
    values = {a["id"]: a["value_id"] for a in first["attributes"]}
    for a, b in itertools.combinations(["BRAND", "MODEL", "VEHICLE_YEAR", "SHORT_VERSION"], 2):
        known = [{"id": a, "value_id": values[a]}, {"id": b, "value_id": values[b]}]
        assert top(client, "FUEL_TYPE", known).get_json() == expected_top_values(bundle, "FUEL_TYPE", known)


def test_a_known_brand_its_known_model_implies_is_not_checked_product_by_product(client, load_bundle, monkeypatch):
    """The brand's stored pair counts show that every product of the (rarer) model has that brand:
    the count reads the model's products alone. Exact also when they share no product."""
    monkeypatch.setattr(stored, "POPULAR_VALUE", 10)  # the brand (16 products) popular, the model (8) not
    bundle = finder_bundle()
    load_bundle(bundle)
    known = [{"id": "BRAND", "value_id": "61828"}, {"id": "MODEL", "value_id": "66092"}]
    with recorded_statements() as seen:
        answer = top(client, "VEHICLE_YEAR", known).get_json()
    assert answer == expected_top_values(bundle, "VEHICLE_YEAR", known) and answer
    assert not [sql for sql in seen if '"k"."attribute_id"' in sql]  # no correlated test of the brand
    apart = [{"id": "BRAND", "value_id": "61828"}, {"id": "MODEL", "value_id": "62200"}]
    with recorded_statements() as seen:
        assert top(client, "VEHICLE_YEAR", apart).get_json() == []
    assert not [sql for sql in seen if "product_attribute" in sql]
