"""Items and seller item searches (endpoints 3, 4, 5, 11, 6)"""
from flask import current_app, g
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import items, reports
from schemas.examples import items as examples
from schemas.items import (
    CardSchema,
    CardsRequestSchema,
    ItemSchema,
    ItemSearchQuerySchema,
    ItemSearchSchema,
    SummaryRequestSchema,
    SummarySchema,
)

blp = Blueprint("items", __name__, description="Items and seller item searches (endpoints 3, 4, 5, 11, 6)")


@blp.route("/items/<item_id>")
class ItemById(MethodView):
    @blp.auth("token")
    @blp.errors(404)
    @blp.response(200, ItemSchema, example=examples.ITEM)
    def get(self, item_id):
        """Read an item

        Endpoint 3. Any valid token. `tags` carries `incomplete_compatibilities` and
        `pending_compatibilities`; `attributes` carries `HAS_COMPATIBILITIES` exactly when the
        item has at least one compatibility (the universal setting counts).
        Errors: 401 `invalid_token`; 404 `item_not_found`.
        """
        return items.get_item(item_id)


def _caller_is_path_user(view_kwargs, caller_id):
    items.require_caller_is_user(caller_id, view_kwargs["seller_id"])


@blp.route("/users/<int:seller_id>/items/search")
class SellerItemSearch(MethodView):
    @blp.auth("token", owner=_caller_is_path_user)
    @blp.errors(400)
    @blp.arguments(ItemSearchQuerySchema, location="query")
    @blp.response(200, ItemSearchSchema, example=examples.SELLER_ITEM_SEARCH)
    def get(self, args, seller_id):
        """Search the caller's items by compatibility state

        Endpoints 4 and 5. `tags=incomplete_compatibilities` lists items that must still report
        compatibilities, `tags=pending_compatibilities` items with suggestions, and
        `status=active&has_compatibilities=true` active items with compatibilities (the sources
        for a copy). Filters combine; results are item ids, ascending, paginated.
        Errors: 400 `validation_error` for an unknown tag or status or a bad limit/offset;
        401 `invalid_token`; 403 `forbidden` when the path's user is not the caller.
        """
        return items.search_seller_items(g.caller_id, seller_id, **args)


@blp.route("/items/compatibilities_summary")
class CompatibilitiesSummary(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.arguments(SummaryRequestSchema, example=examples.SUMMARY_REQUEST)
    @blp.response(200, SummarySchema(many=True), example=examples.SUMMARY)
    def post(self, body):
        """Summarise the compatibilities of several items

        Endpoint 11. One record per item, in request order (a repeated id once), at most
        SUMMARY_MAX_ITEMS (100) items. `domain_id` is the items' domain (all compatibilities
        count) or a vehicle domain they can be compatible with (only that domain's count).
        Errors: 400 `validation_error` (missing field, empty `items`), `too_many_items`,
        `invalid_item_id`, `domain_mismatch` (an item is neither of `domain_id` nor compatible
        with it); 401 `invalid_token`; 403 `forbidden` (an item of another seller);
        404 `domain_not_found`, `item_not_found` (naming every missing id).
        """
        return reports.compatibilities_summary(g.caller_id, body["domain_id"], body["items"],
                                               current_app.config["SUMMARY_MAX_ITEMS"])


@blp.route("/items/catalog_domains/<domain_id>/compatibilities/cards", endpoint="ItemCompatibilityCards")
@blp.route("/catalog_domains/<domain_id>/compatibilities/cards", endpoint="CompatibilityCards")
class CompatibilityCards(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.arguments(CardsRequestSchema, example=examples.CARDS_REQUEST)
    @blp.response(200, CardSchema(many=True), example=examples.CARDS)
    def post(self, body, domain_id):
        """Read the suggestion and complaint cards of an item

        Endpoint 6, served with and without the `/items` prefix. One card per requested filter
        whose quantity is above zero: `SUGGESTED` counts pending suggestions, `REPUTATION` the
        compatibilities with at least one incompatibility claim. Texts are in the site's language.
        Errors: 400 `validation_error` (missing `item_id`, empty or unknown `filters`),
        `invalid_item_id`, `domain_mismatch`; 401 `invalid_token`; 403 `forbidden` (not the
        item's seller); 404 `item_not_found`, `domain_not_found`, `product_not_found`.
        """
        return reports.compatibility_cards(g.caller_id, domain_id, body["item_id"], body["filters"],
                                           body.get("product_id"))
