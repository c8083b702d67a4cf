"""Compatibilities of an item: family count (2), cards (6), writes and reads (8 to 20), summary (11), ETags (H2, H3)."""
from flask import current_app, g
from flask.views import MethodView

from app.http.ratelimit import compat_rate_limit
from app.http.smorest import Blueprint, raw_json
from app.services import compat, history
from app.services.auth import item_seller_guard
from schemas.compat import (
    CompatibilitiesCreateSchema,
    CompatibilitiesDeleteSchema,
    CompatibilitiesPutEchoSchema,
    CompatibilitiesPutSchema,
    CompatibilityDetailSchema,
    CompatibilityExceptionSchema,
    CompatibilityListQuerySchema,
    CompatibilityListSchema,
    CreatedCountSchema,
    DeletedSchema,
    ExceptionCreateSchema,
    ExtendedCheckSchema,
    FamilyCountResultSchema,
    FamilyCountSchema,
    NoteSchema,
)
from schemas.examples import compat as examples
from schemas.examples import items as item_examples
from schemas.items import CardSchema, CardsRequestSchema, SummaryRequestSchema, SummarySchema

blp = Blueprint("compatibilities", __name__, description="Compatibilities of an item (2, 6, 8 to 20, H2, H3)")

WRITE_AUTH = {"invalid_status": 403, "owner": item_seller_guard}
ITEM = ("invalid_item_id", "item_not_found")
# A write of the item's seller (WRITE_AUTH's owner check), rate limited.
ITEM_WRITE = (*ITEM, "forbidden", "local_rate_limited")
# What adding compatibilities checks (endpoints 8, 9 and PUT's create).
ADDING = ("invalid_arguments", "too_many_products", "too_many_families", "site_mismatch", "not_child_product",
          "domain_not_compatible", "category_not_configured", "family_without_products", "item_is_universal",
          "item_has_compatibilities", "universal_not_allowed", "notes_disabled", "restrictions_disabled",
          "restriction_not_allowed", "repeated_restriction_attribute", "repeated_restriction_value",
          "repeated_restriction_group", "too_many_restriction_groups", "too_many_restriction_values",
          "too_many_compatibilities", "invalid_copy_source", "copy_source_without_compatibilities",
          "product_not_found", "domain_not_found")


def limits():
    return compat.Limits.from_config(current_app.config)


@blp.route("/catalog_compatibilities/products_search/count_family_products")
class FamilyProductsCount(MethodView):
    @blp.auth("token")
    @compat_rate_limit
    @blp.errors("too_many_products", "domain_not_found", "local_rate_limited")
    @blp.arguments(FamilyCountSchema, example=examples.FAMILY_COUNT_REQUEST)
    @blp.response(200, FamilyCountResultSchema, example=examples.FAMILY_COUNT)
    def post(self, body):
        """Count the products a family selects

        Endpoint 2. A family that selects more than the per-request limit (200) is refused, the
        message giving the count: it could not be sent to the write endpoints.
        """
        return compat.count_family_products(body["domain_id"], body["attributes"], limits().max_products)


@blp.route("/items/<item_id>/compatibilities")
class ItemCompatibilities(MethodView):
    @blp.auth("token")
    @blp.errors(*ITEM)
    @blp.etag
    @blp.arguments(CompatibilityListQuerySchema, location="query")
    @blp.response(200, CompatibilityListSchema, examples=examples.LIST_EXAMPLES)
    def get(self, query, item):
        """List the compatibilities of an item

        Endpoint 12 and H2: every entry unless `limit` or `offset` is given (then `paging`); a universal item answers
        `products: []`, `universal.domain_ids`. `ETag` (read first) is writes' `If-Match`; `If-None-Match` gets 304.
        """
        blp.set_etag(history.list_etag(item, g.caller_id))
        return raw_json(compat.list_compatibilities(
            item, g.caller_id, query["extended"], query.get("limit"), query.get("offset"),
            current_app.config["REPUTATION_RED_CLAIMS"]))

    @blp.auth("token", **WRITE_AUTH)
    @compat_rate_limit
    @blp.errors(*ITEM_WRITE, *ADDING)
    @blp.item_compatibility_write
    @blp.arguments(CompatibilitiesCreateSchema, examples=examples.CREATE_REQUEST_EXAMPLES)
    @blp.response(200, CreatedCountSchema, examples=examples.CREATE_EXAMPLES)
    def post(self, body, item):
        """Add compatibilities, set the item universal, or copy another item's

        Endpoints 8 and 9. Something must be added, and universal excludes products
        (`invalid_arguments`); a note is at most 500 characters.
        """
        return compat.add_compatibilities(item, body, g.caller_id, limits())

    @blp.auth("token", **WRITE_AUTH)
    @compat_rate_limit
    @blp.errors(*ITEM_WRITE, *ADDING, "compatibility_not_found", "catalog_compatibility_not_deletable")
    @blp.item_compatibility_write
    @blp.arguments(CompatibilitiesPutSchema, example=examples.PUT_REQUEST)
    @blp.response(200, CompatibilitiesPutEchoSchema, example=examples.PUT_ECHO)
    def put(self, body, item):
        """Create, update and delete compatibilities in one transaction

        Endpoint 10. Deletes first, then creates (and copies `create.item_to_copy`, only the vehicles
        the item lacks), then updates; if any part fails nothing is written. Answers the processed
        sections with `universal` and restriction codes. Updating or deleting a product the item is
        not compatible with is not found.
        """
        return compat.change_compatibilities(item, body, g.caller_id, limits())

    @blp.auth("token", **WRITE_AUTH)
    @compat_rate_limit
    @blp.errors(*ITEM_WRITE, "too_many_families", "too_many_products", "family_without_products", "site_mismatch",
                "domain_not_found")
    @blp.item_compatibility_write
    @blp.arguments(CompatibilitiesDeleteSchema, required=False, example=examples.DELETE_FAMILIES_REQUEST)
    @blp.response(200, DeletedSchema, example=examples.DELETED)
    def delete(self, body, item):
        """Delete all compatibilities, or those of some product families

        Endpoints 17 (no body: every compatibility the seller made, universal included) and 18
        (`products_families`). Catalog (CATALOGO) compatibilities are kept.
        """
        if body.get("products_families"):
            return compat.delete_by_families(item, body["products_families"], limits())
        return compat.delete_all(item)


@blp.route("/items/<item_id>/compatibilities/extended/check")
class ItemCompatibilitiesExtendedCheck(MethodView):
    @blp.read(ExtendedCheckSchema, *ITEM, example=examples.EXTENDED_CHECK)
    def get(self, item):
        """Whether the item's category accepts notes and restrictions

        Endpoint 14.
        """
        return compat.extended_check(item)


@blp.route("/items/<item_id>/compatibilities/exception")
class ItemCompatibilityException(MethodView):
    @blp.read(CompatibilityExceptionSchema, *ITEM, example=examples.EXCEPTION)
    def get(self, item):
        """Whether the item has a compatibility exception

        Endpoint 20: true only while the item has no compatibility.
        """
        return compat.get_exception(item)

    @blp.auth("token", **WRITE_AUTH)
    @compat_rate_limit
    @blp.errors(*ITEM_WRITE, "item_not_active", "item_has_compatibilities", "category_without_compatibilities",
                "exception_already_reported")
    @blp.item_compatibility_write
    @blp.arguments(ExceptionCreateSchema, example=examples.EXCEPTION_REQUEST)
    @blp.response(200, CompatibilityExceptionSchema, example=examples.EXCEPTION_REPORTED)
    def post(self, body, item):
        """Report that the item's vehicle is missing from the catalog

        Endpoint 19. The comment is required, at most 255 characters.
        """
        return compat.report_exception(item, body["comment"])


@blp.route("/items/<item_id>/compatibilities/<compatibility_id>")
class ItemCompatibilityById(MethodView):
    @blp.read(CompatibilityDetailSchema, *ITEM, "compatibility_not_found", example=examples.DETAIL)
    def get(self, item, compatibility_id):
        """Read one compatibility

        Endpoint 13; `note_status` only for the item's seller.
        """
        return compat.get_compatibility(item, compatibility_id, g.caller_id,
                                        current_app.config["REPUTATION_RED_CLAIMS"])

    @blp.auth("token", **WRITE_AUTH)
    @compat_rate_limit
    @blp.errors(*ITEM_WRITE, "compatibility_not_found", "catalog_compatibility_not_deletable")
    @blp.item_compatibility_write
    @blp.response(200, DeletedSchema, example=examples.DELETED_ONE)
    def delete(self, item, compatibility_id):
        """Delete one compatibility

        Endpoint 16; the universal setting is deleted by its id too. Catalog (CATALOGO)
        compatibilities cannot be deleted.
        """
        return compat.delete_one(item, compatibility_id)


@blp.route("/items/<item_id>/compatibilities/<compatibility_id>/note")
class ItemCompatibilityNote(MethodView):
    @blp.read(NoteSchema, *ITEM, "compatibility_not_found", example=examples.NOTE)
    def get(self, item, compatibility_id):
        """Read the note of one compatibility

        Endpoint 15: "" when there is none, or while it is in moderation for a caller who is not the
        seller.
        """
        return compat.get_note(item, compatibility_id, g.caller_id)


@blp.route("/items/compatibilities_summary")
class CompatibilitiesSummary(MethodView):
    @blp.read(SummarySchema(many=True), *ITEM, "too_many_items", "domain_mismatch", "forbidden", "domain_not_found",
              example=item_examples.SUMMARY)
    @blp.arguments(SummaryRequestSchema, example=item_examples.SUMMARY_REQUEST)
    def post(self, body):
        """Summarise the compatibilities of several items

        Endpoint 11. One record per item, in request order (a repeated id once), at most
        SUMMARY_MAX_ITEMS (100) items. `domain_id` is the items' domain (all compatibilities
        count) or a vehicle domain they can be compatible with (only that domain's count), never
        another. Every item must be the caller's; a not found names every missing id.
        """
        return compat.compatibilities_summary(g.caller_id, body["domain_id"], body["items"],
                                               current_app.config["SUMMARY_MAX_ITEMS"])


@blp.route("/items/catalog_domains/<domain_id>/compatibilities/cards", endpoint="ItemCompatibilityCards")
@blp.route("/catalog_domains/<domain_id>/compatibilities/cards", endpoint="CompatibilityCards")
class CompatibilityCards(MethodView):
    @blp.read(CardSchema(many=True), *ITEM, "domain_mismatch", "forbidden", "domain_not_found", "product_not_found",
              example=item_examples.CARDS)
    @blp.arguments(CardsRequestSchema, example=item_examples.CARDS_REQUEST)
    def post(self, body, domain_id):
        """Read the suggestion and complaint cards of an item

        Endpoint 6, served with and without the `/items` prefix. One card per requested filter
        whose quantity is above zero: `SUGGESTED` counts pending suggestions, `REPUTATION` the
        compatibilities with at least one incompatibility claim. Texts are in the site's language.
        Only for the item's seller.
        """
        return compat.compatibility_cards(g.caller_id, domain_id, body["item_id"], body["filters"],
                                           body.get("product_id"))
