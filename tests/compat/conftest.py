"""Fixtures shared by the compat tests."""
import pytest

from tests.reads_data import reads_bundle


@pytest.fixture
def reads_loaded(load_bundle):
    """The read-side bundle of `tests.reads_data` (items, compatibilities, orders and claims), loaded."""
    load_bundle(reads_bundle())
