"""Items and a seller's item searches by compatibility state (endpoints 3, 4, 5)."""
from flask import g
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import auth, items
from app.services.auth.ownership import seller_items_guard
from schemas.examples import items as examples
from schemas.items import (
    ItemSchema,
    ItemSearchQuerySchema,
    ItemSearchSchema,
)

blp = Blueprint("items", __name__, description="Items and seller item searches (endpoints 3, 4, 5)")


@blp.route("/items/<item_id>")
class ItemById(MethodView):
    # known_item: a malformed id is an unknown item here (404), not the 400 of the compatibility routes.
    @blp.read(ItemSchema, "item_not_found", item=auth.known_item, example=examples.ITEM)
    def get(self, item):
        """Read an item

        Endpoint 3. Any valid token. `tags` carries `incomplete_compatibilities` and
        `pending_compatibilities`; `attributes` carries `HAS_COMPATIBILITIES` exactly when the
        item has at least one compatibility (the universal setting counts).
        """
        return items.get_item(item)


@blp.route("/users/<int:seller_id>/items/search")
class SellerItemSearch(MethodView):
    @blp.auth("token", owner=seller_items_guard)
    @blp.errors("forbidden")
    @blp.arguments(ItemSearchQuerySchema, location="query")
    @blp.response(200, ItemSearchSchema, example=examples.SELLER_ITEM_SEARCH)
    def get(self, args, seller_id):
        """Search the caller's items by compatibility state

        Endpoints 4 and 5. `tags=incomplete_compatibilities` lists items that must still report
        compatibilities, `tags=pending_compatibilities` items with suggestions, and
        `status=active&has_compatibilities=true` active items with compatibilities (the sources
        for a copy). Filters combine; results are item ids, ascending, paginated. Only the path's
        user may search.

        With `search_type=scan` (or a `scroll_id`) the answer carries a `scroll_id`: send it back for
        each next page, past the offset limit; an exhausted scan answers no results.
        """
        if args.get("search_type") == "scan" or "scroll_id" in args:
            args.pop("offset", None)
            args.pop("search_type", None)
            return items.scan_seller_items(g.caller_id, seller_id, **args)
        args.pop("search_type", None)
        return items.search_seller_items(g.caller_id, seller_id, **args)
