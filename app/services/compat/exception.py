"""The compatibility exception of an item whose vehicle is missing from the catalog
(endpoints 19 and 20)."""
from app.db import write_transaction
from app.errors import ApiError
from app.models import Compatibility, CompatibilityException
from app.services.compat.context import LOADABLE_TYPE, load_rules, lock_item
from app.services.compat.item_state import refresh_items


def report_exception(item, comment):
    """Endpoint 19 (`item` is the item's row): only for an active item of a category with
    compatibilities, that has none and no exception yet."""
    item_id = item.id
    with write_transaction():
        item = lock_item(item_id)  # the item as it is under the lock, which the rules must see
        if item.status != "active":
            raise ApiError("item_not_active",
                           f"Item {item_id} is {item.status}: only active items can report an exception")
        if Compatibility.select().where(Compatibility.item == item.key).exists():
            raise ApiError("item_has_compatibilities",
                           f"Item {item_id} has compatibilities: an exception is only for items without any")
        if not any(cr is not None and rule.type == LOADABLE_TYPE for rule, cr in load_rules(item).values()):
            raise ApiError("category_without_compatibilities",
                           f"Category {item.category_id} of item {item_id} has no compatibilities")
        if CompatibilityException.select().where(CompatibilityException.item == item_id).exists():
            raise ApiError("exception_already_reported",
                           f"Item {item_id} already has a compatibility exception")
        CompatibilityException.create(item=item_id, comment=comment)
        refresh_items([item_id])
    return {"item_id": item_id, "has_exception": True, "comment": comment}


def get_exception(item):
    """Endpoint 20 (rule 2; `item` is the item's row): true only while the item has no compatibility."""
    reported = CompatibilityException.select().where(CompatibilityException.item == item.id).exists()
    compatible = Compatibility.select().where(Compatibility.item == item.key).exists()
    return {"has_exception": reported and not compatible}
