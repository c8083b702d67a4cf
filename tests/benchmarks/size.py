"""The database's size per compatibility, and its largest tables and indexes (issue 34).

    python -m tests.benchmarks.size --database-url URL [--top 12]

Per compatibility: the compatibility table (with its TOAST on PostgreSQL), its indexes, and the
change records (the compatibility_change table and its indexes), each divided by the number of
compatibilities stored; the target is on the sum. PostgreSQL's figures are pg_table_size (heap,
TOAST, free space and visibility maps) and pg_indexes_size of each table, and pg_relation_size of
each index. SQLite's come from the dbstat virtual table (the pages of each table and index, as
stored); a build of SQLite without it falls back to the file's `PRAGMA page_count` split by each
object's share of rows, which the report says. `run.py --size-only` prints this after building the
catalog, without the HTTP load.
"""
import argparse

from app import create_app
from app.db import connection, db, is_postgres

TARGET_BYTES = 400  # issue 34: compatibility, its indexes and its change records, at ten times the data
COMPATIBILITY, HISTORY = "compatibility", "compatibility_change"
PACKED = 90.0  # PostgreSQL B-tree leaves after CREATE INDEX or REINDEX: the default fillfactor


def _rows(sql, params=()):
    return db.execute_sql(sql, params).fetchall()


def _postgres_objects():
    """[(name, kind, table, bytes)]: kind 'table' (heap with TOAST and maps) or 'index'."""
    return [(name, "table" if kind == "r" else "index", table, size) for name, kind, table, size in _rows(
        "SELECT c.relname, c.relkind, coalesce(t.relname, c.relname),"
        " CASE c.relkind WHEN 'r' THEN pg_table_size(c.oid) ELSE pg_relation_size(c.oid) END"
        " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " LEFT JOIN pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = i.indrelid"
        " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')")]


def _postgres_density(names):
    """{index: average leaf density in percent} by pgstattuple's pgstatindex (its extension is
    created when missing; {} when it cannot be)."""
    try:
        with db.atomic():
            db.execute_sql("CREATE EXTENSION IF NOT EXISTS pgstattuple")
            return {name: _rows("SELECT avg_leaf_density FROM pgstatindex(%s)", (name,))[0][0] for name in names}
    except Exception:  # no pgstattuple on this server, or no right to create it
        return {}


def _sqlite_density(names):
    """{table or index: percent of its pages' bytes in use} from dbstat."""
    try:
        rows = _rows("SELECT name, 100.0 * sum(pgsize - unused) / sum(pgsize) FROM dbstat GROUP BY name")
    except Exception:  # no dbstat
        return {}
    return {name: density for name, density in rows if name in names}


def _sqlite_objects():
    """[(name, kind, table, bytes)] and how they were measured."""
    objects = {name: (kind, table) for kind, name, table in _rows(
        "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")}
    try:
        sizes = dict(_rows("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"))
        method = "dbstat (pages of each table and index)"
    except Exception:  # SQLite built without SQLITE_ENABLE_DBSTAT_VTAB
        page_size, pages = (_rows(f"PRAGMA {p}")[0][0] for p in ("page_size", "page_count"))
        counts = {t: _rows(f'SELECT count(*) FROM "{t}"')[0][0] for t, (k, _) in objects.items() if k == "table"}
        weights = {n: counts.get(table, 0) for n, (_, table) in objects.items()}
        total = sum(weights.values()) or 1
        sizes = {n: page_size * pages * w / total for n, w in weights.items()}
        method = "APPROXIMATE: PRAGMA page_count split by rows (no dbstat in this SQLite)"
    # sqlite_autoindex_* (UNIQUE and text primary keys) are indexes too; a table's own b-tree is the table.
    return [(name, kind, table, sizes.get(name, 0)) for name, (kind, table) in objects.items()], method


def measure():
    """{'objects': [(name, kind, table, bytes)], 'method', 'compatibilities', 'history_records',
    'density': {index: percent of its leaf pages in use}} of the app context's database (after a
    checkpoint, so SQLite's WAL is in the file). A B-tree filled by keys that arrive in order but
    below a greater key (a page that is not the rightmost) splits its pages in halves: half-full
    leaves are where such an index's bytes go."""
    if is_postgres():
        db.execute_sql("CHECKPOINT")
        objects, method = _postgres_objects(), "pg_table_size per table, pg_relation_size per index"
    else:
        db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        objects, method = _sqlite_objects()
    counts = {t: _rows(f'SELECT count(*) FROM "{t}"')[0][0] for t in (COMPATIBILITY, HISTORY)}
    ours = [name for name, kind, table, _ in objects if kind == "index" and table in (COMPATIBILITY, HISTORY)]
    density = (_postgres_density if is_postgres() else _sqlite_density)(ours)
    return {"objects": objects, "method": method, "compatibilities": counts[COMPATIBILITY],
            "history_records": counts[HISTORY], "density": density}


def per_compatibility(report):
    """{'table', 'indexes', 'history', 'total'}: bytes per compatibility."""
    n = report["compatibilities"] or 1
    parts = {"table": 0, "indexes": 0, "history": 0}
    for _, kind, table, size in report["objects"]:
        if table == COMPATIBILITY:
            parts["table" if kind == "table" else "indexes"] += size
        elif table == HISTORY:
            parts["history"] += size
    parts = {key: value / n for key, value in parts.items()}
    return {**parts, "total": sum(parts.values())}


def print_report(report, log=print, top=12, judged=True):
    per = per_compatibility(report)
    mark = ("PASS" if per["total"] <= TARGET_BYTES else "MISS") if judged else "(judged at ten times the data)"
    log(f"size: {report['compatibilities']:,} compatibilities, {report['history_records']:,} change records "
        f"({report['method']})")
    log(f"  bytes per compatibility: table {per['table']:.0f} + indexes {per['indexes']:.0f} + change records "
        f"{per['history']:.0f} = {per['total']:.0f} (target <= {TARGET_BYTES}) {mark}")
    packed = per["total"] - _half_empty(report)
    if is_postgres() and report["density"]:
        log(f"  with the indexes of both tables rebuilt (REINDEX, leaves {PACKED:.0f} % full): about {packed:.0f}")
    for kind in ("table", "index"):
        rows = sorted((o for o in report["objects"] if o[1] == kind), key=lambda o: -o[3])[:top]
        log(f"  largest {kind if kind == 'table' else 'indexe'}s:")
        for name, _, table, size in rows:
            on = f" on {table}" if kind == "index" else ""
            density = report["density"].get(name)
            filled = f", leaves {density:.0f} % full" if density is not None else ""
            log(f"    {size / 2**20:10,.1f} MB  {name}{on}"
                f"  ({size / (report['compatibilities'] or 1):.0f} B per compatibility{filled})")
    return per


def _half_empty(report):
    """Bytes per compatibility that rebuilding the compatibility and history indexes would free: each
    index's share of its leaves beyond PostgreSQL's default fill for a build (fillfactor 90)."""
    freed = sum(size * (1 - density / PACKED) for name, _, _, size in report["objects"]
                if (density := report["density"].get(name)) is not None and density < PACKED)
    return freed / (report["compatibilities"] or 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--top", type=int, default=12, help="how many of the largest tables and indexes")
    args = parser.parse_args()
    app = create_app({"DATABASE_URL": args.database_url, "RATELIMIT_ENABLED": False})
    with app.app_context(), connection():
        print_report(measure(), top=args.top)


if __name__ == "__main__":
    main()
