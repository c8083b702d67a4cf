"""Who may write an item: the item must exist and the caller must be its seller.

`require_item_seller(item_id, user_id) -> Item` is shared by every area that writes items;
`item_seller_guard` adapts it to the route guard (`@blp.auth(..., owner=item_seller_guard)`).
"""
import re

from app.errors import ApiError
from app.services.auth import queries
from schemas.vocabulary import ITEM_ID_PATTERN

ITEM_ID = re.compile(ITEM_ID_PATTERN)


def require_item(item_id):
    """The item, or 400 for a malformed id and 404 for an unknown one."""
    if not isinstance(item_id, str) or not ITEM_ID.match(item_id):
        raise ApiError(400, "invalid_item_id",
                       f"Item id {item_id!r} is malformed: expected a site id and digits, e.g. MLA123456")
    item = queries.item_row(item_id)
    if item is None:
        raise ApiError(404, "item_not_found", f"Item {item_id} does not exist")
    return item


def require_item_seller(item_id, user_id):
    """The item when `user_id` is its seller; 403 `forbidden` otherwise."""
    item = require_item(item_id)
    if item.seller_id != user_id:
        raise ApiError(403, "forbidden", f"Item {item_id} belongs to another seller: "
                       "only its seller may change it")
    return item


def item_seller_guard(view_kwargs, caller_id):
    """The route guard's owner check for views with an `item_id` path parameter."""
    require_item_seller(view_kwargs["item_id"], caller_id)
