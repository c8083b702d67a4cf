"""The fitment catalog loaded for every test of this package."""
import pytest

from app.models import finder as stored
from tests.fitment.data import add_family, fitment_bundle


@pytest.fixture(params=[stored.POPULAR_VALUE, 1], ids=["default-popular", "every-value-popular"])
def fitment(request, client, load_bundle, monkeypatch):
    # With every value popular the finder stores every pair count, which the matching of a partly
    # known vehicle then reads to narrow its attributes and count its products: no answer may
    # depend on which counts are stored.
    monkeypatch.setattr(stored, "POPULAR_VALUE", request.param)
    load_bundle(fitment_bundle())
    add_family(client)
    return client
