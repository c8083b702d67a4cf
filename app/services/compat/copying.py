"""Copying the compatibilities of another item of the same seller (endpoint 9, and PUT's
create.item_to_copy, which copies only the vehicles the target lacks)."""
from peewee import JOIN

from app.errors import ApiError
from app.models import Compatibility, Product
from app.services.auth.ownership import require_item
from app.services.compat.plans import Entry
from app.services.compat.store import insert_entries, reject_if_universal, set_universal


def _source_item(ctx, request, caller_id, limits):
    source = require_item(request["item_id"])
    if source.seller_id != caller_id:
        raise ApiError("forbidden", f"Item to copy {source.id} belongs to another seller: "
                       "only your own items can be copied")
    if source.id == ctx.item.id:
        raise ApiError("invalid_copy_source", "item_to_copy.item_id is the item itself; name another item")
    if source.site_id != ctx.item.site_id:
        raise ApiError("site_mismatch", f"Item to copy {source.id} is of site {source.site_id}, "
                       f"not of {ctx.item.site_id}, the item's site")
    count = Compatibility.select().where(Compatibility.item == source.key).count()
    if count == 0:
        raise ApiError("copy_source_without_compatibilities",
                       f"Item to copy {source.id} has no compatibilities (no HAS_COMPATIBILITIES attribute); "
                       "find items to copy with GET /users/{user_id}/items/search?has_compatibilities=true")
    if count > limits.max_per_item:
        raise ApiError("too_many_compatibilities",
                       f"Item to copy {source.id} has {count} compatibilities, more than the "
                       f"{limits.max_per_item} allowed per item")
    return source


def _details(ctx, row, extended):
    """The source's note and restrictions when they are asked for and the target's category
    accepts them; restrictions not offered for the target's domain pair are left behind."""
    if not extended:
        return None, None
    category_rule = ctx.category_rule(row.domain_id)
    note = row.note if row.note and category_rule.note_status != "DISABLED" else None
    restrictions = None
    if row.restrictions and category_rule.restrictions_status != "DISABLED":
        try:
            restrictions = ctx.restrictions.validate(row.restrictions, row.domain_id)
        except ApiError:
            restrictions = None
    return note, restrictions


def copy_compatibilities(ctx, request, caller_id, limits, only_missing):
    """Copies the source's compatibilities into ctx.item; with only_missing False the target
    must have none (endpoint 9), otherwise existing vehicles are kept as they are."""
    source = _source_item(ctx, request, caller_id, limits)
    universal, specific = ctx.state()
    if not only_missing and (universal or specific):
        raise ApiError("item_has_compatibilities",
                       f"Item {ctx.item.id} already has compatibilities: copy with PUT /items/{ctx.item.id}/"
                       "compatibilities and create.item_to_copy, which adds only the missing vehicles")
    extended = request.get("extended_information", False)
    result = {"item_id": source.id, "extended_information": extended}
    # The product's row gives its text id and domain (none for the universal setting's row).
    rows = list(Compatibility.select(Compatibility.product.alias("vehicle_key"), Product.id.alias("vehicle_id"),
                                     Product.domain.alias("domain_id"), Compatibility.universal,
                                     Compatibility.creation_source, Compatibility.note, Compatibility.restrictions)
                .join(Product, JOIN.LEFT_OUTER, on=(Product.key == Compatibility.product))
                .where(Compatibility.item == source.key).order_by(Compatibility.date_created, Product.id).objects())
    if any(row.universal for row in rows):
        result["created_compatibilities_count"] = set_universal(ctx)
        result["products"] = []
        return result
    reject_if_universal(ctx)
    for domain_id in {row.domain_id for row in rows}:
        ctx.category_rule(domain_id, f"item_to_copy ({source.id})")
    ctx.restrictions.preload({row.domain_id for row in rows})
    entries = [Entry(row.vehicle_id, row.domain_id, row.creation_source, *_details(ctx, row, extended),
                     row.vehicle_key) for row in rows]
    written = insert_entries(ctx.item, entries)
    result["created_compatibilities_count"] = len(written)
    result["products"] = [_echo(ctx, row) for row in written]
    return result


def _echo(ctx, row):
    out = {"id": row["id"], "catalog_product_id": row["product_id"], "domain_id": row["domain_id"],
           "creation_source": row["creation_source"]}
    if row["note"]:
        out["note"] = row["note"]
    if row["restrictions"]:
        out["restrictions"] = ctx.restrictions.with_codes(row["restrictions"], row["domain_id"])
    return out
