"""Adding and changing an item's compatibilities (endpoints 8, 9 and 10), each call one
transaction that locks the item, checks everything, writes and refreshes the item's state."""
from app.db import write_transaction
from app.services.compat import copying
from app.services.compat.context import ItemContext, lock_item
from app.services.compat.deletes import apply_delete, plan_delete
from app.services.compat.item_state import refresh_items
from app.services.compat.plans import check_families_limit, check_products_limit, invalid_arguments, plan_create
from app.services.compat.store import check_item_limit, insert_entries, reject_if_universal, set_universal
from app.services.compat.updates import apply_update, plan_update

ELEMENT_KEYS = ("products", "products_group", "products_families")


def _families(section):
    return len((section or {}).get("products_families") or ())


def _named(section):
    """The product ids a section names itself (families aside)."""
    section = section or {}
    ids = {el["id"] for el in section.get("products") or ()}
    ids.update(pid for el in section.get("products_group") or () for pid in el["ids"])
    return ids


def _plan_create_section(ctx, section, limits, prefix, require_something):
    """(entries, echo, wants universal) for POST's body or PUT's create section."""
    universal = section.get("universal") is True
    has_elements = any(section.get(k) for k in ELEMENT_KEYS)
    if universal and has_elements:
        invalid_arguments("universal is true and products, groups or families are given; send universal "
                          "with empty products, products_group and products_families")
    if require_something and not universal and not has_elements:
        invalid_arguments("no products, products_group, products_families or universal: true was given")
    if universal:
        return {}, {}, True
    entries, echo = plan_create(ctx, section, limits, prefix)
    return entries, echo, False


def add_compatibilities(item, body, caller_id, limits, reads=None):
    """Endpoint 8, or endpoint 9 when the body is {item_to_copy}, to `item` (its row); `reads`: catalog
    reads shared with other writes (context.CatalogReads)."""
    item_id = item.id
    with write_transaction():
        ctx = ItemContext(lock_item(item_id), reads)
        if "item_to_copy" in body:
            if any(body.get(k) for k in ELEMENT_KEYS) or body.get("universal"):
                invalid_arguments("item_to_copy is sent alone; add other compatibilities in another request")
            result = copying.copy_compatibilities(ctx, body["item_to_copy"], caller_id, limits, only_missing=False)
        else:
            check_families_limit(_families(body), limits)
            entries, _, universal = _plan_create_section(ctx, body, limits, "", require_something=True)
            if universal:
                created = set_universal(ctx)
            else:
                reject_if_universal(ctx)
                created = len(insert_entries(ctx.item, entries.values()))
            result = {"created_compatibilities_count": created}
        check_item_limit(ctx.item, limits)
        refresh_items([item_id])
    return result


def change_compatibilities(item, body, caller_id, limits, reads=None):
    """Endpoint 10 on `item` (its row): delete, then create (and copy), then update, all or nothing;
    `reads` as in add_compatibilities."""
    item_id = item.id
    create, update, delete = body.get("create"), body.get("update"), body.get("delete")
    with write_transaction():
        ctx = ItemContext(lock_item(item_id), reads)
        check_families_limit(_families(create) + _families(update) + _families(delete), limits)
        # A cheap first look, before any lookup; families are counted once expanded.
        check_products_limit(len(_named(create) | _named(update) | _named(delete)), limits)
        deletion = plan_delete(ctx, delete, limits, "delete.") if delete is not None else None
        entries, create_echo, universal = ({}, {}, False)
        if create is not None:
            entries, create_echo, universal = _plan_create_section(ctx, create, limits, "create.", False)
        deleted_products = deletion.product_ids if deletion else set()
        updates = (plan_update(ctx, update, limits, deleted_products, entries) if update is not None else None)
        touched = set(deleted_products) | set(entries) | (updates.product_ids if updates else set())
        check_products_limit(len(touched), limits)

        echo = {}
        if deletion is not None:
            apply_delete(item_id, deletion)
            echo["delete"] = {**deletion.echo, "universal": deletion.universal}
        if create is not None:
            if universal:
                set_universal(ctx)
            elif entries:
                reject_if_universal(ctx)
                insert_entries(ctx.item, entries.values())
            echo["create"] = {**create_echo, "universal": universal}
            if create.get("item_to_copy"):
                echo["create"]["item_to_copy"] = copying.copy_compatibilities(
                    ctx, create["item_to_copy"], caller_id, limits, only_missing=True)
        if updates is not None:
            apply_update(ctx.item, updates)
            echo["update"] = {**updates.echo, "universal": False}
        check_item_limit(ctx.item, limits)
        refresh_items([item_id])
    return echo
