"""The finder's test catalog, loaded through the importer."""
import pytest

from tests.finder.data import finder_bundle


@pytest.fixture
def bundle(load_bundle):
    bundle = finder_bundle()
    load_bundle(bundle)
    return bundle
