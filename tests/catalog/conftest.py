"""Fixtures shared by the catalog tests."""
import pytest

from tests.catalog.search_data import search_bundle


@pytest.fixture
def catalog(load_bundle):
    """The site search's bundle, loaded; the bundle itself for the test to read."""
    bundle = search_bundle()
    load_bundle(bundle)
    return bundle
