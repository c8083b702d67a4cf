"""Who may write an item: the item must exist and the caller must be its seller; and who may read
what belongs to the user in the path: that user alone.

A route with an item in its path hands its view the item's row, which the route guard read with
the token and passed through `checked_item` (app/http/auth.py); `require_item_seller(item, user_id)`
is shared by every area that writes items, and `item_seller_guard` adapts it to the route guard
(`@blp.auth(..., owner=item_seller_guard)`). `require_item` reads an item named elsewhere (a body,
a public route). `require_caller_is_user` serves every route under /users/<id>/, each guard with
its own message.
"""
import re

from app.errors import ApiError
from app.services.auth import queries
from schemas.vocabulary import ITEM_ID_PATTERN

ITEM_ID = re.compile(ITEM_ID_PATTERN)


def require_item_id(item_id):
    """400 for a malformed item id."""
    if not isinstance(item_id, str) or not ITEM_ID.match(item_id):
        raise ApiError("invalid_item_id",
                       f"Item id {item_id!r} is malformed: expected a site id and digits, e.g. MLA123456")


def item_not_found(item_id):
    return ApiError("item_not_found", f"Item {item_id} does not exist")


def known_item(item_id, item):
    """`item`, the row read for `item_id`; 404 when there is none (a malformed id included)."""
    if item is None:
        raise item_not_found(item_id)
    return item


def checked_item(item_id, item):
    """`item`, the row read for `item_id`; 400 for a malformed id, 404 when there is none."""
    require_item_id(item_id)
    return known_item(item_id, item)


def require_item(item_id):
    """The item, read; 400 for a malformed id and 404 for an unknown one."""
    require_item_id(item_id)
    return known_item(item_id, queries.item_row(item_id))


def require_item_seller(item, user_id, may="change it"):
    """`item` (its row) when `user_id` is its seller; 403 `forbidden` otherwise, saying what only
    the seller `may` do."""
    if item.seller_id != user_id:
        raise ApiError("forbidden", f"Item {item.id} belongs to another seller: "
                       f"only its seller may {may}")
    return item


def item_seller_guard(view_kwargs, caller_id):
    """The route guard's owner check for views with an item in their path (the `item` it hands them)."""
    require_item_seller(view_kwargs["item"], caller_id)


def item_history_reader_guard(view_kwargs, caller_id):
    """The owner check of the one read only the seller may make: its change history (H1)."""
    require_item_seller(view_kwargs["item"], caller_id, may="read its compatibilities' change history")


# What only the path's user may do, and whose (the refusal names them).
SEARCH_OWN_ITEMS = ("search their own items", "those")
READ_OWN_FEED = ("read their own change feed", "that")


def require_caller_is_user(caller_id, user_id, what):
    """403 `forbidden` unless the caller is user `user_id`; `what` is (what the user alone may do,
    the pronoun for another user's)."""
    if caller_id != user_id:
        may, others = what
        raise ApiError("forbidden", f"Caller {caller_id} may only {may}, not {others} of user {user_id}")


def seller_items_guard(view_kwargs, caller_id):
    """The owner check of a seller's item searches (endpoints 4, 5): the path's seller alone."""
    require_caller_is_user(caller_id, view_kwargs["seller_id"], SEARCH_OWN_ITEMS)


def change_feed_guard(view_kwargs, caller_id):
    """The owner check of a user's change feed (N4): the path's user alone."""
    require_caller_is_user(caller_id, view_kwargs["user_id"], READ_OWN_FEED)
