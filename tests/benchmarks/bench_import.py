"""Times the catalog import: re-imports of a product bundle, and the benchmark catalog's import rows.

    python -m tests.benchmarks.bench_import [--products 100000] [--compatibilities 1000000]
        [--only products|catalog] [--database-url URL]

Runs on a fresh SQLite file, and also on the PostgreSQL database named by --database-url (a
throwaway one: its tables are dropped between the two parts).

- products: a synthetic bundle of vehicle products (5 attributes each) imported, imported again
  unchanged, then as a revision in which every product changed, then exported.
- catalog: the catalog `tests.benchmarks.run` builds (tests/benchmarks/catalog.py), with the import
  rows its table prints: the products in one bundle, the compatibilities in chunks of
  `catalog.CHUNK` (one import each, as the benchmark loads them).
"""
import argparse
import os
import tempfile
import time

from app import create_app
from app.db import connection, db, is_postgres
from app.migrations import create_schema
from app.models import Compatibility, Product, ProductAttribute
from app.services.bundle import export_bundle, import_bundle
from tests.benchmarks.catalog import CHUNK, Catalog

CHILDREN_PER_PARENT = 9


def synthetic_bundle(count, revision=0):
    """`count` products of MLA-CARS_AND_VANS: one parent per 9 children, 5 attributes each;
    another `revision` changes every product's name and one attribute."""
    products, parent_id = [], None
    for n in range(count):
        brand, model, year = n % 40, (n // 40) % 25, 1990 + n % 35
        attributes = [{"id": "BRAND", "value_id": f"B{brand}", "value_name": f"Marca {brand}"},
                      {"id": "MODEL", "value_id": f"M{brand}-{model}", "value_name": f"Modelo {model}"},
                      {"id": "VEHICLE_YEAR", "value_id": str(year), "value_name": str(year)},
                      {"id": "SHORT_VERSION", "value_id": f"V{n % 50}", "value_name": f"{1.0 + n % 20 / 10:.1f}"},
                      {"id": "ENGINE", "value_id": f"E{(n + revision) % 30}",
                       "value_name": f"Motor {(n + revision) % 30}"}]
        product = {"id": f"MLA{n:09d}", "domain_id": "MLA-CARS_AND_VANS", "name": f"Vehículo {n} r{revision}",
                   "attributes": attributes}
        if n % (CHILDREN_PER_PARENT + 1) == 0:
            parent_id = product["id"]
        else:
            product["parent_id"] = parent_id
        products.append(product)
    return {
        "currencies": [{"id": "ARS", "description": "Peso argentino", "symbol": "$", "decimal_places": 2}],
        "sites": [{"id": "MLA", "name": "Argentina", "default_currency_id": "ARS"}],
        "domains": [{"id": "MLA-CARS_AND_VANS", "site_id": "MLA", "name": "Autos y camionetas"}],
        "products": products,
    }


def run(label, database_url, bundle, changed):
    app = create_app({"DATABASE_URL": database_url})
    count = len(bundle["products"])
    with app.app_context(), connection():
        if Product.table_exists() and Product.select().exists():
            raise SystemExit(f"{label}: the database already has products; give an empty one")
        create_schema()
        for attempt, data in (("first import", bundle), ("same again", bundle), ("all changed", changed)):
            started = time.perf_counter()
            import_bundle(data)
            seconds = time.perf_counter() - started
            print(f"{label:10} {attempt:12} {count:>8} products  {seconds:7.2f} s  "
                  f"{count / seconds:>9,.0f} products/s", flush=True)
        assert Product.select().count() == count
        assert ProductAttribute.select().count() == count * 5
        started = time.perf_counter()
        exported = export_bundle()
        seconds = time.perf_counter() - started
        assert len(exported["products"]) == count
        print(f"{label:10} {'export':12} {count:>8} products  {seconds:7.2f} s  "
              f"{count / seconds:>9,.0f} products/s", flush=True)


def run_catalog(label, database_url, args):
    """The import rows of the benchmark catalog, built from an empty database."""
    app = create_app({"DATABASE_URL": database_url})
    catalog = Catalog(args.products, 10_000, args.compatibilities)
    with app.app_context(), connection():
        if is_postgres():
            db.execute_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        create_schema()
        catalog.build(lambda text: None)
        assert Compatibility.select().count() >= catalog.n_compatibilities
    for row, seconds in catalog.timings.items():
        print(f"{label:10} import {row:36} {seconds:7.2f} s", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--compatibilities", type=int, default=1_000_000)
    parser.add_argument("--only", choices=["products", "catalog"])
    parser.add_argument("--database-url", help="a throwaway PostgreSQL database to import into as well")
    args = parser.parse_args()
    urls = [("sqlite", None)] + ([("postgresql", args.database_url)] if args.database_url else [])
    if args.only != "catalog":
        started = time.perf_counter()
        bundle, changed = synthetic_bundle(args.products), synthetic_bundle(args.products, revision=1)
        print(f"bundle of {args.products} products built in {time.perf_counter() - started:.2f} s")
        for label, url in urls:
            with tempfile.TemporaryDirectory() as folder:
                run(label, url or "sqlite:///" + os.path.join(folder, "bench.db"), bundle, changed)
    if args.only != "products":
        print(f"benchmark catalog: compatibilities in chunks of {CHUNK:,}, one import each")
        for label, url in urls:
            with tempfile.TemporaryDirectory() as folder:
                run_catalog(label, url or "sqlite:///" + os.path.join(folder, "bench.db"), args)


if __name__ == "__main__":
    main()
