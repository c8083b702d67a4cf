"""The compatibility queries every list (endpoint 12) runs, prepared (app.db.prepared): compiled
by peewee once, run with each request's values; the list's rows are read from the cursor as
dicts, without building model instances."""
from peewee import JOIN, Case, fn

from app.db import execute_prepared, param
from app.models import Claim, Compatibility, Order, Product
from schemas.vocabulary import CATALOGO


def _entries():
    """The columns an answer shows of each compatibility, with its vehicle's name."""
    return (Compatibility.select(Compatibility.id, Compatibility.domain_id, Compatibility.product.alias("vehicle_id"),
                                 Product.name.alias("product_name"), Compatibility.source, Compatibility.note,
                                 Compatibility.note_status, Compatibility.restrictions, Compatibility.universal)
            .join(Product, JOIN.LEFT_OUTER, on=(Compatibility.product == Product.id)).dicts())


def entry_row(item_id, compatibility_id):
    """One compatibility of the item as a dict of the columns answers show, or None."""
    return _entries().where(Compatibility.id == compatibility_id, Compatibility.item == item_id).first()


def list_rows(item_id, limit=None, offset=None):
    """The item's compatibilities other than the universal setting, oldest first, as dicts of
    the columns answers show: all of them, or the page at (offset, limit) when limit is given."""
    paged = limit is not None

    def build():
        query = (_entries().where(Compatibility.item == param("item"), Compatibility.universal == False)  # noqa: E712
                 .order_by(Compatibility.date_created, Compatibility.product))
        return query.limit(param("limit")).offset(param("offset")) if paged else query
    cursor = execute_prepared(("compat_list", paged), build, {"item": item_id, "limit": limit, "offset": offset})
    names = [column[0] for column in cursor.description]
    decode = Compatibility.restrictions.python_value
    for values in cursor:
        row = dict(zip(names, values, strict=True))
        row["restrictions"] = decode(row["restrictions"])
        yield row


def list_totals(item_id):
    """(non-universal count, CATALOGO count, universal setting's id or None), in one query."""
    return execute_prepared("compat_list_totals", lambda: Compatibility.select(
        fn.SUM(Case(None, [(Compatibility.universal == False, 1)], 0)),  # noqa: E712
        fn.SUM(Case(None, [(Compatibility.source == CATALOGO, 1)], 0)),
        fn.MAX(Case(None, [(Compatibility.universal == True, Compatibility.id)], None)))  # noqa: E712
        .where(Compatibility.item == param("item")), {"item": item_id}).fetchone()


def claims_by_product(item_id):
    """{product_id: claims_count} for the claims on this item's orders, by the vehicle chosen.

    Products the item has no compatibility with are included too; callers join them to
    the compatibilities they show.
    """
    cursor = execute_prepared("claims_by_product", lambda: (
        Order.select(Order.snapshot_product_id, fn.COUNT(Claim.id))
        .join(Claim, on=(Claim.order == Order.id))
        .where(Order.item == param("item"), Order.snapshot_product_id.is_null(False))
        .group_by(Order.snapshot_product_id)), {"item": item_id})
    return dict(cursor.fetchall())
