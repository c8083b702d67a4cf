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


def test_family_joins_start_from_the_attribute_with_fewest_products(run_db):
    assert run_db(families._by_selectivity, DOMAIN, [BRAND, YEAR, MODEL]) == [MODEL, BRAND, YEAR]


def test_family_probe_is_capped(run_db, monkeypatch):
    monkeypatch.setattr(families, "SELECTIVITY_PROBE", 3)
    # BRAND and MODEL both reach the cap of 3: ties keep the request's order.
    assert run_db(families._by_selectivity, DOMAIN, [BRAND, MODEL]) == [BRAND, MODEL]


@pytest.mark.parametrize("attributes", [[BRAND, MODEL, YEAR], [YEAR, MODEL, BRAND], [MODEL, YEAR, BRAND]])
def test_family_answer_does_not_depend_on_attribute_order(run_db, attributes):
    assert run_db(families.count_family, DOMAIN, attributes) == 2
    assert len(run_db(families.expand_family, DOMAIN, attributes, 200)) == 2


def test_single_attribute_family_needs_no_probe(run_db):
    assert run_db(families._by_selectivity, DOMAIN, [BRAND]) == [BRAND]
    assert run_db(families.count_family, DOMAIN, [BRAND]) == 12
