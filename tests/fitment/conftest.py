"""The fitment catalog loaded for every test of this package."""
import pytest

from tests.fitment.data import add_family, fitment_bundle


@pytest.fixture
def fitment(client, load_bundle):
    load_bundle(fitment_bundle())
    add_family(client)
    return client
