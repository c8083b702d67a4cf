"""Whether each domain's products have keys in the order of their ids (ProductKeyOrder), which the
import keeps true where it can and records.

The attribute rows' indexes end with the product's key. Where a domain's keys follow its ids, a
page of the products of one value in id order (the finder's default order, and its ties under a
sort) is the index's entries in their own order, read up to the page's end whatever the catalog's
size; otherwise each matching product's id is read and all of them sorted.

An import gives its new products keys in the order of their ids, drawn at once (every key greater
than every stored one); a domain's keys still follow its ids when its new ids all order after the
greatest it holds, as a marketplace's sequential ids of one site do. A product moved into a domain
brings the key it has: that domain's order is no longer known. Products are written only by the
import, which holds a lock from the check until it commits, so that no other import draws keys in
between. Deletes keep the order."""
from app.models import Product, ProductKeyOrder
from app.prepared_sql import execute_prepared, param
from app.services.row_keys.queries import (
    ids_ascend,
    ids_compare_by_code_points,
    lock_product_keys,
    next_keys,
    stored_in_domain,
    stored_orders,
)


def keys_follow_ids(domain_id):
    """The domain's recorded order (False when none is recorded)."""
    row = execute_prepared("product_keys_follow_ids", lambda: ProductKeyOrder.select(
        ProductKeyOrder.keys_follow_ids).where(ProductKeyOrder.domain_id == param("domain")),
        {"domain": domain_id}).fetchone()
    return bool(row and row[0])


def new_product_keys(new, moved=()):
    """{id: key} for the new products `new` ({id: domain id}, none stored), drawn in the order of
    the ids; records whether the keys of their domains, and of the domains stored products are
    `moved` into, still follow the ids. Inside the import's write transaction."""
    if not new and not moved:
        return {}
    ids = sorted(new)
    lock_product_keys()
    by_domain = {}
    for product_id in ids:
        by_domain.setdefault(new[product_id], []).append(product_id)
    domains = by_domain.keys() | set(moved)
    stored = {row.domain_id: row for row in ProductKeyOrder.select().where(ProductKeyOrder.domain_id.in_(domains))}
    by_code_points = ids_compare_by_code_points()
    for domain_id in sorted(domains):
        row, ids_in = stored.get(domain_id), by_domain.get(domain_id, [])
        follows = (row.keys_follow_ids if row else not stored_in_domain(domain_id)) and domain_id not in moved
        greatest = row.greatest_id if row else None
        chain = ([greatest] if greatest is not None else []) + ids_in
        if follows and len(chain) > 1:
            follows = chain[0] < chain[1] if by_code_points else ids_ascend(chain)
        if follows and ids_in:
            greatest = ids_in[-1]
        (ProductKeyOrder.insert(domain_id=domain_id, greatest_id=greatest, keys_follow_ids=follows)
         .on_conflict(conflict_target=[ProductKeyOrder.domain_id],
                      update={ProductKeyOrder.greatest_id: greatest, ProductKeyOrder.keys_follow_ids: follows})
         .execute())
    return dict(zip(ids, next_keys(Product, len(ids)), strict=True))


def record_stored_order():
    """Records each domain's order as its stored products have it (a migration: keys given before
    the record was kept came in the order of each import's bundle)."""
    ProductKeyOrder.delete().execute()
    rows = [{"domain_id": domain_id, "greatest_id": greatest, "keys_follow_ids": bool(follows)}
            for domain_id, greatest, follows in stored_orders()]
    if rows:
        ProductKeyOrder.insert_many(rows).execute()
