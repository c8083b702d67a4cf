"""A large import runs with Python's cyclic garbage collector paused (bundle.bulk.collector_paused),
and the collector is on again after it, whether the import succeeds or fails."""
import gc

import pytest

import app.services.bundle.pipeline as bundle
from app.services.bundle import BundleError, import_bundle
from app.services.bundle.bulk import MIN_ROWS, collector_paused


def test_the_collector_is_paused_only_for_a_large_import_and_on_again_after():
    assert gc.isenabled()
    with collector_paused(MIN_ROWS):
        assert not gc.isenabled()
    assert gc.isenabled()
    with collector_paused(MIN_ROWS - 1):
        assert gc.isenabled()
    gc.disable()  # paused by someone else: left as it was
    try:
        with collector_paused(MIN_ROWS):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_failed_large_import_turns_the_collector_back_on(run_db, monkeypatch):
    seen = []

    def refusing(sections_bundle):
        seen.append(gc.isenabled())
        return {}, ["$: refused by the test"], set()

    monkeypatch.setattr(bundle, "validate_structure", refusing)
    with pytest.raises(BundleError):
        run_db(import_bundle, {"currencies": [{}] * MIN_ROWS})
    assert seen == [False] and gc.isenabled()
