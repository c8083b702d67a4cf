"""A family's query starts from its most selective attribute, so its cost follows the family's
size and not the catalog's; the attribute order in the request never changes the answer."""
import pytest

from app.services.compat import families
from tests.bundles import base_bundle

DOMAIN = "MLA-CARS_AND_VANS"
BRAND = {"id": "BRAND", "value_id": "60249"}  # Volkswagen: 12 child products
MODEL = {"id": "MODEL", "value_id": "62109"}  # Gol: 6 of them
YEAR = {"id": "VEHICLE_YEAR", "value_name": "2015"}  # every brand: 12 child products


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(base_bundle())


def ranked(attributes):
    """The positions of `attributes` in the order the family's statements take them."""
    return families._ranked(*families._family_params(DOMAIN, attributes))


def count(attributes):
    return families.count_family_products(DOMAIN, attributes, 200).count


def test_family_statements_start_from_the_attribute_with_fewest_products(run_db):
    assert run_db(ranked, [BRAND, YEAR, MODEL]) == (2, 0, 1)  # MODEL, BRAND, YEAR


def test_family_probe_is_capped(run_db, monkeypatch):
    monkeypatch.setattr(families, "SELECTIVITY_PROBE", 3)
    # BRAND and MODEL both reach the cap of 3: ties keep the request's order.
    assert run_db(ranked, [BRAND, MODEL]) == (0, 1)
    assert run_db(ranked, [MODEL, BRAND]) == (0, 1)


@pytest.mark.parametrize("attributes", [[BRAND, MODEL, YEAR], [YEAR, MODEL, BRAND], [MODEL, YEAR, BRAND]])
def test_family_answer_does_not_depend_on_attribute_order(run_db, attributes):
    assert run_db(count, attributes) == 2
    assert len(run_db(families.expand_family, DOMAIN, attributes, 200)) == 2


def test_single_attribute_family_needs_no_probe(run_db):
    assert run_db(ranked, [BRAND]) == (0,)
    assert run_db(count, [BRAND]) == 12
    assert len(run_db(families.expand_family, DOMAIN, [BRAND], 200)) == 12


def test_expanded_family_gives_each_product_with_its_key(run_db):
    """The writers take the keys from here (plans.Entry): no second lookup of the family's products."""
    from app.models import Product

    expanded = run_db(families.expand_family, DOMAIN, [MODEL], 200)
    stored = run_db(lambda: dict(Product.select(Product.id, Product.key)
                                 .where(Product.id.in_(list(expanded))).tuples()))
    assert len(expanded) == 6 and expanded == stored


def test_expanded_family_stops_one_past_the_limit(run_db):
    assert len(run_db(families.expand_family, DOMAIN, [BRAND], 5)) == 6


def test_family_of_an_unknown_domain_expands_to_nothing(run_db):
    assert run_db(families.expand_family, "MLA-NOPE", [BRAND], 200) == {}
