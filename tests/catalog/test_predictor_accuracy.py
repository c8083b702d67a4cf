"""The category predictor's quality gate: top-1 accuracy on the demo's held-out titles."""
import pytest

from tests.benchmarks.bench_predictor import TOP1_TARGET, check_held_out, evaluate


@pytest.mark.slow
def test_predictor_top1_accuracy_on_held_out_demo_titles_is_at_least_0_8(load_bundle, run_db):
    from app.data.demo import build_demo_bundle
    from tests.catalog.heldout_data import DEMO_HELD_OUT_TITLES

    bundle = build_demo_bundle()
    assert len(DEMO_HELD_OUT_TITLES) >= 200
    check_held_out(bundle, DEMO_HELD_OUT_TITLES)  # never learned from
    load_bundle(bundle)
    result = run_db(evaluate, DEMO_HELD_OUT_TITLES)
    assert result["top1"] >= TOP1_TARGET, result["misses"][:10]
