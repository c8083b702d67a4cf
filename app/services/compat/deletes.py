"""Deleting compatibilities (endpoints 16 to 18, and PUT's delete section). Only those the
seller made (source SELLER) can be deleted; the catalog's own (CATALOGO) are kept."""
from dataclasses import dataclass, field

from app.db import write_transaction
from app.errors import ApiError
from app.models import Compatibility, Product
from app.services import history
from app.services.compat.context import ItemContext, lock_item
from app.services.compat.item_state import refresh_items
from app.services.compat.plans import check_families_limit, check_products_limit, family_products
from app.services.compat.store import IN_CHUNK, chunks
from app.services.row_keys.lookups import product_id_of
from schemas.vocabulary import SELLER


@dataclass
class Deletion:
    """What a delete removes; the answer of endpoints 16 to 18 (DeletedSchema dumps its ids)."""

    ids: list = field(default_factory=list)
    product_ids: set = field(default_factory=set)
    universal: bool = False
    echo: dict = field(default_factory=dict)


def _not_deletable(compatibility_id, product_id=None):
    what = f"product {product_id}" if product_id else "the universal setting"
    return ApiError("catalog_compatibility_not_deletable",
                    f"Compatibility {compatibility_id} ({what}) was loaded by the catalog (source CATALOGO); "
                    "only compatibilities made by the seller can be deleted")


def _rows(item, product_ids, seller_only=False):
    """{product id: (compatibility id, source)} of `item` (its row) with these products."""
    rows = {}
    for chunk in chunks(product_ids, IN_CHUNK):
        query = (Compatibility.select(Product.id, Compatibility.id, Compatibility.source)
                 .join(Product, on=(Product.key == Compatibility.product))
                 .where(Compatibility.item == item.key, Product.id.in_(chunk)))
        if seller_only:
            query = query.where(Compatibility.source == SELLER)
        rows.update((pid, (cid, source)) for pid, cid, source in query.tuples())
    return rows


def _plan_families(ctx, families, limits, deletion, prefix):
    for i, family in enumerate(families):
        selected = family_products(ctx, family, f"{prefix}products_families.{i}", limits)
        deletion.product_ids.update(selected)
        check_products_limit(len(deletion.product_ids), limits)
        for cid, _ in _rows(ctx.item, selected, seller_only=True).values():
            if cid not in deletion.ids:
                deletion.ids.append(cid)


def plan_delete(ctx, section, limits, prefix=""):
    """What to delete; 404 for a product the item is not compatible with, 403 for a catalog one.
    Families skip catalog compatibilities."""
    deletion = Deletion()
    products = section.get("products") or ()
    rows = _rows(ctx.item, [el["id"] for el in products])
    for i, element in enumerate(products):
        pid = element["id"]
        if pid not in rows:
            raise ApiError("compatibility_not_found",
                           f"{prefix}products.{i}: item {ctx.item.id} has no compatibility with product {pid}")
        cid, source = rows[pid]
        if source != SELLER:
            raise _not_deletable(cid, pid)
        deletion.product_ids.add(pid)
        if cid not in deletion.ids:
            deletion.ids.append(cid)
    _plan_families(ctx, section.get("products_families") or (), limits, deletion, prefix)
    if section.get("universal"):
        deletion.universal = True
        deletion.ids += [cid for (cid,) in Compatibility.select(Compatibility.id).where(
            Compatibility.item == ctx.item.key, Compatibility.universal == True,  # noqa: E712
            Compatibility.source == SELLER).tuples()]
    deletion.echo = {k: section[k] for k in ("products", "products_families") if k in section}
    return deletion


def apply_delete(item_id, deletion):
    history.record_deleted(item_id, deletion.ids)
    for chunk in chunks(deletion.ids, IN_CHUNK):
        Compatibility.delete().where(Compatibility.id.in_(chunk)).execute()


def delete_one(item, compatibility_id):
    """Endpoint 16, of `item` (its row)."""
    item_id = item.id
    with write_transaction():
        lock_item(item_id)
        row = (Compatibility.select(Compatibility.id, Compatibility.source,
                                    product_id_of(Compatibility.product).alias("vehicle_id"))
               .where(Compatibility.id == compatibility_id, Compatibility.item == item.key).first())
        if row is None:
            raise ApiError("compatibility_not_found",
                           f"Item {item_id} has no compatibility {compatibility_id}")
        if row.source != SELLER:
            raise _not_deletable(row.id, row.vehicle_id)
        history.record_deleted(item_id, [row.id])
        row.delete_instance()
        refresh_items([item_id])
    return Deletion(ids=[compatibility_id])


def delete_all(item):
    """Endpoint 17: every compatibility the seller made on `item` (its row), the universal setting included."""
    item_id = item.id
    with write_transaction():
        lock_item(item_id)
        ids = [cid for (cid,) in Compatibility.select(Compatibility.id).where(
            Compatibility.item == item.key, Compatibility.source == SELLER).order_by(Compatibility.id).tuples()]
        deletion = Deletion(ids=ids)
        apply_delete(item_id, deletion)
        refresh_items([item_id])
    return deletion


def delete_by_families(item, families, limits):
    """Endpoint 18, of `item` (its row)."""
    with write_transaction():
        ctx = ItemContext(lock_item(item.id))
        check_families_limit(len(families), limits)
        deletion = Deletion()
        _plan_families(ctx, families, limits, deletion, "")
        apply_delete(item.id, deletion)
        refresh_items([item.id])
    return deletion
