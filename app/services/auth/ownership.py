"""Who may write an item: the item must exist and the caller must be its seller; and who may read
what belongs to the user in the path: that user alone.

`require_item_seller(item_id, user_id) -> Item` is shared by every area that writes items;
`item_seller_guard` adapts it to the route guard (`@blp.auth(..., owner=item_seller_guard)`).
`require_caller_is_user` serves every route under /users/<id>/, each guard with its own message.
"""
import re
from contextlib import contextmanager
from contextvars import ContextVar

from app.db import db
from app.errors import ApiError
from app.services.auth import queries
from schemas.vocabulary import ITEM_ID_PATTERN

ITEM_ID = re.compile(ITEM_ID_PATTERN)
NOT_READ = object()
_read_with_token = ContextVar("item_read_with_token", default=None)


@contextmanager
def item_read_with_token(item_id, item):
    """Within it, the reads of item `item_id` answer `item` (its row, or None for no such item),
    which the route guard read in the token check's statement (tokens.resolve_token_owner_and_item):
    one round trip instead of two. It spans one request's view, so no other request sees the row."""
    reset = _read_with_token.set((item_id, item))
    try:
        yield
    finally:
        _read_with_token.reset(reset)


def token_read_item(item_id):
    """The row of `item_id` the token check read (None when there is no such item), or NOT_READ
    when it read none, or another item. A write transaction reads the item afresh: its rules
    see the state they lock, not the one before the transaction."""
    read = _read_with_token.get()
    if read is None or read[0] != item_id or db.obj.in_transaction():
        return NOT_READ
    return read[1]


def require_item_id(item_id):
    """400 for a malformed item id."""
    if not isinstance(item_id, str) or not ITEM_ID.match(item_id):
        raise ApiError("invalid_item_id",
                       f"Item id {item_id!r} is malformed: expected a site id and digits, e.g. MLA123456")


def item_not_found(item_id):
    return ApiError("item_not_found", f"Item {item_id} does not exist")


def require_item(item_id):
    """The item, or 400 for a malformed id and 404 for an unknown one."""
    require_item_id(item_id)
    item = token_read_item(item_id)
    if item is NOT_READ:
        item = queries.item_row(item_id)
    if item is None:
        raise item_not_found(item_id)
    return item


def require_item_seller(item_id, user_id, may="change it"):
    """The item when `user_id` is its seller; 403 `forbidden` otherwise, saying what only the seller
    `may` do."""
    item = require_item(item_id)
    if item.seller_id != user_id:
        raise ApiError("forbidden", f"Item {item_id} belongs to another seller: "
                       f"only its seller may {may}")
    return item


def item_seller_guard(view_kwargs, caller_id):
    """The route guard's owner check for views with an `item_id` path parameter."""
    require_item_seller(view_kwargs["item_id"], caller_id)


def item_history_reader_guard(view_kwargs, caller_id):
    """The owner check of the one read only the seller may make: its change history (H1)."""
    require_item_seller(view_kwargs["item_id"], caller_id, may="read its compatibilities' change history")


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
