"""Each domain's products have keys in the order of their ids where the import can keep them so,
and the import records whether they do (app/services/row_keys/order.py): the finder pages a domain's
products by key only then."""
import psycopg
import pytest

from app.db import is_postgres
from app.models import Product, ProductKeyOrder
from app.services.row_keys import order, queries
from app.services.row_keys.order import keys_follow_ids
from tests.bundles import base_bundle, vehicle_products

CARS, SPARK_PLUGS = "MLA-CARS_AND_VANS", "MLA-SPARK_PLUGS"


def _vehicle(product_id, **fields):
    return {**next(p for p in vehicle_products() if p.get("parent_id")), "id": product_id, **fields}


def _load(load_bundle, ids, **fields):
    load_bundle({"products": [_vehicle(i, **fields) for i in ids]})


def _keys_by_id(run_db, domain_id=CARS):
    return run_db(lambda: [key for (key,) in Product.select(Product.key).where(Product.domain == domain_id)
                           .order_by(Product.id).tuples()])


@pytest.fixture
def catalog(load_bundle):
    load_bundle(base_bundle())


def test_a_first_import_gives_keys_in_the_order_of_the_ids_whatever_the_bundles_order(run_db, load_bundle):
    assert not run_db(keys_follow_ids, CARS)  # nothing recorded yet
    bundle = base_bundle()
    bundle["products"] = bundle["products"][::-1]
    load_bundle(bundle)
    keys = run_db(lambda: [key for (key,) in Product.select(Product.key).order_by(Product.id).tuples()])
    assert len(keys) == len(bundle["products"]) and keys == sorted(keys)
    assert run_db(keys_follow_ids, CARS) and run_db(keys_follow_ids, "MLB-CARS_AND_VANS")


def test_greater_ids_keep_a_domains_order_and_a_lesser_one_ends_it_for_good(catalog, run_db, load_bundle):
    # Greater than every id of the domain, though not than another site's stored ids (MLB...).
    _load(load_bundle, ["MLA90207", "MLA90205"])
    assert run_db(keys_follow_ids, CARS) and _keys_by_id(run_db) == sorted(_keys_by_id(run_db))
    _load(load_bundle, ["MLA90206"])  # between stored ids: its key is the greatest
    assert not run_db(keys_follow_ids, CARS)
    assert _keys_by_id(run_db) != sorted(_keys_by_id(run_db))
    _load(load_bundle, ["MLA90299"])
    assert not run_db(keys_follow_ids, CARS)
    assert run_db(keys_follow_ids, "MLB-CARS_AND_VANS")  # another domain keeps its own


def test_a_product_moved_into_a_domain_ends_that_domains_order(catalog, run_db, load_bundle):
    _load(load_bundle, ["MLA70001"], domain_id=SPARK_PLUGS, parent_id=None)
    assert run_db(keys_follow_ids, SPARK_PLUGS)
    _load(load_bundle, ["MLA90001"], domain_id=SPARK_PLUGS, parent_id=None)  # a stored car, with its old key
    assert not run_db(keys_follow_ids, SPARK_PLUGS)
    assert _keys_by_id(run_db, SPARK_PLUGS) != sorted(_keys_by_id(run_db, SPARK_PLUGS))
    assert run_db(keys_follow_ids, CARS)  # the domain it left keeps its order


def test_a_reimport_of_stored_products_changes_nothing(catalog, run_db, load_bundle):
    keys = _keys_by_id(run_db)
    _load(load_bundle, ["MLA90001"], name="Otro nombre")
    assert run_db(keys_follow_ids, CARS) and _keys_by_id(run_db) == keys


def test_a_failed_import_leaves_the_recorded_order_as_it_was(catalog, run_db, load_bundle, monkeypatch):
    def failing(*args, **kwargs):
        raise RuntimeError("disk full")
    monkeypatch.setattr("app.services.bundle.products._write_attributes", failing)
    with pytest.raises(RuntimeError):
        _load(load_bundle, ["MLA90002X"])
    assert run_db(keys_follow_ids, CARS)
    assert run_db(lambda: Product.get_or_none(Product.id == "MLA90002X")) is None


def test_no_recorded_row_for_a_domain_with_products_is_taken_as_keys_out_of_order(catalog, run_db, load_bundle):
    run_db(lambda: ProductKeyOrder.delete().execute())
    _load(load_bundle, ["MLA90209"])
    assert not run_db(keys_follow_ids, CARS)


def test_a_database_that_orders_ids_by_a_locale_has_them_compared_there(catalog, run_db, load_bundle,
                                                                          monkeypatch):
    """PostgreSQL under a locale's collation may order ids otherwise than Python: the chain of the
    domain's greatest id and the new ids is then asked of the database."""
    if not run_db(is_postgres):
        pytest.skip("SQLite orders text by its bytes, as Python does")
    assert run_db(queries.ids_compare_by_code_points)  # this server's test databases: C.UTF-8
    assert run_db(queries.ids_ascend, ["MLA1", "MLA2", "MLA3"])
    assert not run_db(queries.ids_ascend, ["MLA1", "MLA3", "MLA2"])
    monkeypatch.setattr(queries, "ORDER_CHUNK", 2)  # compared in chunks of pairs: across one too
    assert not run_db(queries.ids_ascend, ["MLA1", "MLA2", "MLA4", "MLA3"])
    monkeypatch.setattr(order, "ids_compare_by_code_points", lambda: False)
    asked = []
    monkeypatch.setattr(order, "ids_ascend", lambda ids: asked.append(list(ids)) or False)
    _load(load_bundle, ["MLA90203", "MLA90201"])
    assert asked == [["MLA90036", "MLA90201", "MLA90203"]] and not run_db(keys_follow_ids, CARS)


def test_an_import_giving_keys_holds_the_lock_until_it_commits(catalog, run_db, load_bundle, database_url,
                                                               monkeypatch):
    """No other import draws keys between this one's check of the order and its commit."""
    if not run_db(is_postgres):
        pytest.skip("SQLite's write transaction excludes every other writer")
    taken = []

    def other_import_tries(ids):  # called by the import after it took the lock
        with psycopg.connect(database_url, autocommit=True) as other:
            taken.append(other.execute("SELECT pg_try_advisory_lock(%s)", (queries.PRODUCT_KEYS_LOCK,)).fetchone()[0])
        return True
    monkeypatch.setattr(order, "ids_compare_by_code_points", lambda: False)
    monkeypatch.setattr(order, "ids_ascend", other_import_tries)
    _load(load_bundle, ["MLA90201"])
    assert taken == [False]
    with psycopg.connect(database_url, autocommit=True) as other:  # released with the commit
        assert other.execute("SELECT pg_try_advisory_lock(%s)", (queries.PRODUCT_KEYS_LOCK,)).fetchone()[0]


def test_which_database_collations_order_ids_as_python_does():
    assert queries.orders_by_code_points("C.UTF-8", "c") and queries.orders_by_code_points("C", None)
    assert queries.orders_by_code_points("POSIX", "c") and queries.orders_by_code_points("C.utf8", "c")
    assert queries.orders_by_code_points("C", "b")  # PostgreSQL 17's builtin provider
    assert not queries.orders_by_code_points("en_US.UTF-8", "c")
    assert not queries.orders_by_code_points("C", "i")  # ICU decides, whatever the C library's setting
