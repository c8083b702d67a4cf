"""Accuracy of the category predictor (endpoint 27) on the demo's held-out titles.

Run: `python -m tests.benchmarks.bench_predictor` (loads the demo bundle into a temporary SQLite
database through the importer). The held-out titles are not items of the bundle, so the
predictor never learned from them; the script checks that before measuring.
"""
import sys
import tempfile
import time
from collections import defaultdict

TOP1_TARGET = 0.8


def check_held_out(bundle, held_out):
    """The held-out titles are not in the bundle, so they were not learned from."""
    learned = {(i["site_id"], i["title"].strip().lower()) for i in bundle.get("items", ())}
    leaked = [h for h in held_out if (h["site_id"], h["title"].strip().lower()) in learned]
    if leaked:
        raise AssertionError(f"{len(leaked)} held-out titles are items of the bundle, e.g. {leaked[0]}")


def evaluate(held_out, limit=3):
    """Top-1 and top-3 hits overall and per site; call with a database connection open."""
    from app.services.catalog import predictor

    per_site = defaultdict(lambda: {"n": 0, "top1": 0, "top3": 0, "empty": 0})
    misses = []
    started = time.perf_counter()
    for case in held_out:
        answer = [a["domain_id"] for a in predictor.predict(case["site_id"], case["title"], limit)]
        stats = per_site[case["site_id"]]
        stats["n"] += 1
        stats["top1"] += bool(answer) and answer[0] == case["domain_id"]
        stats["top3"] += case["domain_id"] in answer
        stats["empty"] += not answer
        if not answer or answer[0] != case["domain_id"]:
            misses.append((case["site_id"], case["title"], case["domain_id"], answer[:1]))
    elapsed = time.perf_counter() - started
    total = len(held_out) or 1
    return {"n": len(held_out),
            "top1": sum(s["top1"] for s in per_site.values()) / total,
            "top3": sum(s["top3"] for s in per_site.values()) / total,
            "empty": sum(s["empty"] for s in per_site.values()),
            "per_site": dict(per_site), "misses": misses, "seconds": elapsed}


def report(result, out=sys.stdout):
    print(f"held-out titles: {result['n']}", file=out)
    print(f"top-1 accuracy: {result['top1']:.3f} (target {TOP1_TARGET})", file=out)
    print(f"top-3 accuracy: {result['top3']:.3f}; answered []: {result['empty']}", file=out)
    print(f"time: {result['seconds']:.2f} s including learning", file=out)
    for site_id, stats in sorted(result["per_site"].items()):
        print(f"  {site_id}: n={stats['n']:4d} top1={stats['top1'] / stats['n']:.3f} "
              f"top3={stats['top3'] / stats['n']:.3f} empty={stats['empty']}", file=out)
    for site_id, title, expected, got in result["misses"][:15]:
        print(f"  miss {site_id} {title!r}: expected {expected}, got {got}", file=out)


def main():
    from app import create_app
    from app.data.demo import build_demo_bundle
    from app.db import connection
    from app.migrations import create_schema
    from app.services.bundle import import_bundle
    from tests.catalog.heldout_data import DEMO_HELD_OUT_TITLES

    bundle = build_demo_bundle()
    check_held_out(bundle, DEMO_HELD_OUT_TITLES)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp}/bench.db", "LOG_LEVEL": "WARNING"})
        with app.app_context(), connection():
            create_schema()
            started = time.perf_counter()
            import_bundle(bundle)
            print(f"demo bundle imported in {time.perf_counter() - started:.1f} s")
            result = evaluate(DEMO_HELD_OUT_TITLES)
    report(result)
    return 0 if result["top1"] >= TOP1_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
