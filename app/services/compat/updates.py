"""PUT's update section: new notes and restrictions for compatibilities the item has (or gets
in the same request); "" removes a note and [] removes the restrictions."""
import json
from dataclasses import dataclass, field

from app.errors import ApiError
from app.models import Compatibility, Product
from app.services import history
from app.services.compat.plans import family_domain, family_products
from app.services.compat.store import IN_CHUNK, chunks, existing_products
from app.services.row_keys.lookups import product_keys_of
from schemas.vocabulary import PENDING


@dataclass
class Change:
    product_ids: list
    note_set: bool
    note: str | None
    restrictions_set: bool
    restrictions: list | None


@dataclass
class UpdatePlan:
    changes: list = field(default_factory=list)
    product_ids: set = field(default_factory=set)
    echo: dict = field(default_factory=dict)


def _domains_of(item, product_ids):
    """{product id: its domain} of the products among `product_ids` that `item` (its row) has a
    compatibility with."""
    domains = {}
    for chunk in chunks(product_ids, IN_CHUNK):
        domains.update(Compatibility.select(Product.id, Product.domain)
                       .join(Product, on=(Product.key == Compatibility.product))
                       .where(Compatibility.item == item.key, Product.id.in_(chunk)).tuples())
    return domains


def _echo(ctx, element, restrictions, domain_id):
    out = dict(element)
    if "restrictions" in element:
        out["restrictions"] = ctx.restrictions.with_codes(restrictions, domain_id) if restrictions else []
    return out


def plan_update(ctx, section, limits, deleted, created):
    """Checks every element: its products must be compatibilities of the item once the
    request's deletes and creates are applied (404 otherwise). A product named by several
    elements takes the change of the first, so that each product gets exactly one change."""
    plan = UpdatePlan()
    item_id = ctx.item.id
    products = section.get("products") or ()
    domains = _domains_of(ctx.item, [el["id"] for el in products])
    for i, element in enumerate(products):
        where, pid = f"update.products.{i}", element["id"]
        domain_id = created[pid].domain_id if pid in created else domains.get(pid)
        if domain_id is None or (pid in deleted and pid not in created):
            raise ApiError("compatibility_not_found",
                           f"{where}: item {item_id} has no compatibility with product {pid}")
        note, restrictions = ctx.details(element, domain_id, where)
        if pid not in plan.product_ids:  # as in create, the first element naming a product decides
            plan.changes.append(Change([pid], "note" in element, note, "restrictions" in element, restrictions))
        plan.product_ids.add(pid)
        plan.echo.setdefault("products", []).append(_echo(ctx, element, restrictions, domain_id))
    for i, family in enumerate(section.get("products_families") or ()):
        where = f"update.products_families.{i}"
        family_domain(ctx, family, where)
        note, restrictions = ctx.details(family, family["domain_id"], where)
        selected = family_products(ctx, family, where, limits)
        present_keys = existing_products(ctx.item, selected.values())
        present = {pid for pid, key in selected.items() if key in present_keys} | set(created)
        targets = [pid for pid in selected if pid in present and (pid not in deleted or pid in created)
                   and pid not in plan.product_ids]
        plan.changes.append(Change(targets, "note" in family, note, "restrictions" in family, restrictions))
        plan.product_ids.update(selected)
        plan.echo.setdefault("products_families", []).append(_echo(ctx, family, restrictions, family["domain_id"]))
    return plan


def _merged(changes):
    """Elements asking for the same change become one, so that 200 products sharing a note
    cost a few UPDATEs, not a few per product."""
    merged = {}
    for change in changes:
        key = (change.note_set, change.note, change.restrictions_set, json.dumps(change.restrictions, sort_keys=True))
        if key in merged:
            merged[key].product_ids.extend(change.product_ids)
        else:
            merged[key] = Change(list(change.product_ids), *key[:3], change.restrictions)
    return merged.values()


def apply_update(item, plan):
    """A few UPDATEs per distinct change of `item` (its row, locked), never one per compatibility. An
    unchanged note keeps its moderation status; a new or changed one goes back to PENDING. One UPDATE
    record per compatibility that really changed."""
    item_id = item.id
    changes = list(_merged(plan.changes))
    before = history.snapshot(item_id, {pid for change in changes for pid in change.product_ids})
    for change in changes:
        for chunk in chunks(change.product_ids, IN_CHUNK):
            mine = (Compatibility.item == item.key) & Compatibility.product.in_(product_keys_of(chunk))
            if change.note_set and change.note:
                (Compatibility.update(note=change.note, note_status=PENDING)
                 .where(mine, Compatibility.note.is_null() | (Compatibility.note != change.note)).execute())
            elif change.note_set:
                Compatibility.update(note=None, note_status=None).where(mine).execute()
            if change.restrictions_set:
                Compatibility.update(restrictions=change.restrictions or None).where(mine).execute()
    history.record_updated(item_id, before)
