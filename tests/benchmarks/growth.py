"""Each request row's growth between two catalogs: p50 on the larger over p50 on the smaller, against a
target (run.py --growth and --scale)."""


def log(text):
    print(text, flush=True)


def print_growth(heading, small_results, results, default_target, row_targets=True):
    """Each row's p50 against the smaller catalog's; `row_targets`: a row's own growth target wins."""
    small = {s.name: r for s, r in small_results}
    log(f"\ngrowth {heading} (p50 ratio, target <= {default_target}"
        f"{' unless the row says' if row_targets else ''})")
    for scenario, result in results[1:]:
        if scenario.name not in small:
            continue  # left out of the first run by --only
        before = small[scenario.name]
        target = (row_targets and scenario.growth) or default_target
        if not result["p50_ms"] or not before["p50_ms"]:  # the load generator got no answer in time
            log(f"{scenario.name:58} {before['p50_ms']:8.2f} -> {result['p50_ms']:8.2f} ms  not measured  MISS")
            continue
        ratio = result["p50_ms"] / before["p50_ms"]
        log(f"{scenario.name:58} {before['p50_ms']:8.2f} -> {result['p50_ms']:8.2f} ms  x{ratio:.2f}  "
            f"(<= {target:g}) {'PASS' if ratio <= target else 'MISS'}")
