"""Category predictor (endpoint 27): its per-process model is kept until an import changes the
catalog version, which it checks with one primary-key read instead of scanning the items."""
import logging
import re

import pytest

from app.models import CatalogVersion
from app.services.catalog import predictor
from tests.bundles import SELLER, item
from tests.catalog.test_predictor import PATH, predictor_bundle, top

LEARNED_TABLES = {"item", "domain", "category", "domain_discovery_term"}


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(predictor_bundle())


def catalog_version(run_db):
    return run_db(lambda: CatalogVersion.select(CatalogVersion.version).scalar())


def model(run_db):
    return run_db(predictor.site_model, "MLA")


def tables_read(sql):
    return set(re.findall(r'(?:FROM|JOIN)\s+"?(\w+)"?', sql, re.IGNORECASE))


def test_cached_prediction_reads_the_catalog_version_not_the_items(client, caplog):
    client.get(PATH, query_string={"q": "zapatillas"})  # learns
    caplog.set_level(logging.DEBUG, logger="peewee")
    caplog.clear()
    response = client.get(PATH, query_string={"q": "remera"})
    assert response.status_code == 200 and response.get_json()[0]["domain_id"] == "MLA-T_SHIRTS"
    read = set().union(*(tables_read(str(r.msg)) for r in caplog.records if r.name == "peewee"))
    assert "catalog_version" in read
    assert not read & LEARNED_TABLES


def test_import_of_items_changes_the_catalog_version_and_the_model_is_relearned(run_db, load_bundle):
    version, first = catalog_version(run_db), model(run_db)
    assert version is not None and model(run_db) is first  # kept while nothing changes
    load_bundle({"items": [item("MLA990", "MLA7777", "MLA-BACKPACKS", seller=SELLER, title="Kanaloa urbana")]})
    assert catalog_version(run_db) != version
    relearned = model(run_db)
    assert relearned is not first and relearned.rank("Kanaloa")[0][0] == "MLA-BACKPACKS"


@pytest.mark.parametrize("section, record", [
    ("domains", {"id": "MLA-BACKPACKS", "site_id": "MLA", "name": "Mochilas Kanaloa"}),
    ("categories", {"id": "MLA7777", "site_id": "MLA", "name": "Mochilas Kanaloa", "domain_id": "MLA-BACKPACKS"}),
    ("domain_discovery", {"site_id": "MLA", "domain_id": "MLA-BACKPACKS", "terms": ["kanaloa"]}),
])
def test_import_of_domains_categories_or_terms_is_predicted_from_next(client, load_bundle, section, record):
    assert top(client, "Kanaloa") is None
    load_bundle({section: [record]})
    assert top(client, "Kanaloa") == "MLA-BACKPACKS"


def test_import_of_nothing_the_predictor_learns_keeps_its_model(run_db, load_bundle):
    version, first = catalog_version(run_db), model(run_db)
    load_bundle({"sites": [{"id": "MLA", "name": "Argentina", "default_currency_id": "ARS", "language": "es"}]})
    assert catalog_version(run_db) == version
    assert model(run_db) is first
