"""One bundle with a bit of every area (compatibilities, suggestions, exception, orders with
claims, size charts), for the contract and security tests."""
from tests.charts_data import charts_bundle
from tests.reads_data import reads_bundle

READS_KEYS = ("compatibilities", "suggestions", "exceptions", "orders", "claims")


def everything_bundle():
    """charts_bundle() plus the items and compatibility data of reads_bundle()."""
    bundle = charts_bundle()
    reads = reads_bundle()
    read_items = {entry["id"] for entry in reads["items"]}
    bundle["items"] = reads["items"] + [entry for entry in bundle["items"] if entry["id"] not in read_items]
    for key in READS_KEYS:
        bundle[key] = reads[key]
    return bundle
