"""The benchmark's size report (tests/benchmarks/size.py) and its growth verdicts (run.py --scale), on a
catalog small enough for a test: the report counts what is stored, splits it into the compatibility
table, its indexes and the change records, and says how full each index's leaves are."""
import pytest

from app.db import connection, db, is_postgres
from app.models import Compatibility, CompatibilityChange
from tests.benchmarks import run, size
from tests.benchmarks.catalog import Catalog
from tests.benchmarks.growth import print_growth
from tests.benchmarks.scenarios import Scenario


def test_the_size_report_divides_the_compatibility_and_history_bytes_by_the_compatibilities(app):
    with app.app_context(), connection():
        Catalog(2 * 220, 4, 3 * 200).build(log=lambda text: None)
        report = size.measure()
        assert report["compatibilities"] == Compatibility.select().count() >= 600
        assert report["history_records"] == CompatibilityChange.select().count() >= 600
        by_name = {name: (kind, table, bytes_) for name, kind, table, bytes_ in report["objects"]}
        assert by_name["compatibility"][:2] == ("table", "compatibility")
        assert by_name["compatibility_change"][:2] == ("table", "compatibility_change")
        indexes = [name for name, (kind, table, _) in by_name.items() if kind == "index" and table == "compatibility"]
        assert "compatibility_item_key_product_key" in indexes and len(indexes) >= 3
        assert set(report["density"]) >= set(indexes)
        assert all(0 < density <= 100 for density in report["density"].values())
        per = size.per_compatibility(report)
        assert min(per["table"], per["indexes"], per["history"]) > 0
        assert per["total"] == per["table"] + per["indexes"] + per["history"]
        table_bytes = by_name["compatibility"][2]
        assert per["table"] == table_bytes / report["compatibilities"]
        lines = []
        size.print_report(report, lines.append, top=3)
        assert f"= {per['total']:.0f} (target <= {size.TARGET_BYTES}) " in lines[1]
        assert sum("B per compatibility" in line for line in lines) == 6
        assert any("with the indexes of both tables rebuilt" in line for line in lines) == is_postgres()
        assert ("dbstat" in report["method"]) != is_postgres()


def test_each_row_grows_within_its_target_or_is_a_miss(capsys):
    rows = [Scenario("GET /health", []), Scenario("flat", [], growth=2), Scenario("grows", []), Scenario("lost", [])]
    small = [(s, {"p50_ms": 1.0}) for s in rows]
    large = [(rows[0], {"p50_ms": 1.0}), (rows[1], {"p50_ms": 1.25}), (rows[2], {"p50_ms": 1.3}),
             (rows[3], {"p50_ms": 0.0})]
    print_growth("x10", small, large, run.SCALE_GROWTH_TARGET, row_targets=False)
    lines = capsys.readouterr().out.splitlines()
    assert "target <= 1.25)" in lines[1]
    assert lines[2].startswith("flat") and lines[2].endswith("x1.25  (<= 1.25) PASS")
    assert lines[3].startswith("grows") and lines[3].endswith("x1.30  (<= 1.25) MISS")
    assert lines[4].startswith("lost") and lines[4].endswith("not measured  MISS")


def test_memory_is_judged_on_each_workers_largest_reading_replaced_workers_included():
    rss = {}
    run.keep_largest(rss, {101: 60.0})  # after the first row
    run.keep_largest(rss, {101: 58.0, 102: 81.0})  # after the second: 102 started meanwhile
    run.keep_largest(rss, {102: 70.0, 103: 59.0})  # after the third: 101 was replaced
    assert rss == {101: 60.0, 102: 81.0, 103: 59.0}
    assert run.memory_verdict(rss) == "workers: 3 read after each row, 59 to 81 MB resident at most (target <= 80) MISS"
    assert run.memory_verdict({101: 80.0}).endswith("80 to 80 MB resident at most (target <= 80) PASS")


def test_the_catalog_is_measured_at_rest_vacuumed_whatever_the_servers_autovacuum(app, database_url):
    """PostgreSQL: rows the build updated leave dead versions and fresh pages are not all-visible
    until a VACUUM, which a server with autovacuum off never runs; settle() runs it."""
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's VACUUM; SQLite's settle is a WAL checkpoint, which any reading of it would redo")
    with app.app_context(), connection():
        Catalog(2 * 220, 4, 3 * 200).build(log=lambda text: None)
        db.execute_sql("UPDATE item SET history_count = history_count")  # a dead version of each item
    run.settle(database_url)
    with app.app_context(), connection():
        visible = db.execute_sql("SELECT relallvisible FROM pg_class WHERE relname = 'item'").fetchone()[0]
        pages = db.execute_sql("SELECT pg_relation_size('item') / current_setting('block_size')::int")
        assert visible == pages.fetchone()[0] > 0  # every page vacuumed: no dead version left to walk
