"""Compatibilities of an item (endpoints 8 to 10, 12 to 20) and the family count (endpoint 2)."""
from flask import current_app, g
from flask.views import MethodView

from app.http.ratelimit import compat_writes
from app.http.smorest import Blueprint, raw_json
from app.services import compat, history
from app.services.auth import item_seller_guard
from schemas.compatibilities import (
    CompatibilitiesPutEchoSchema,
    CompatibilityDetailSchema,
    CompatibilityExceptionSchema,
    CompatibilityListQuerySchema,
    CompatibilityListSchema,
    CreatedCountSchema,
    DeletedSchema,
    ExtendedCheckSchema,
    FamilyCountResultSchema,
    NoteSchema,
)
from schemas.compatibility_inputs import (
    CompatibilitiesCreateSchema,
    CompatibilitiesDeleteSchema,
    CompatibilitiesPutSchema,
    ExceptionCreateSchema,
    FamilyCountSchema,
)
from schemas.examples import compatibilities as examples
from schemas.examples import items as item_examples
from schemas.items import CardSchema, CardsRequestSchema, SummaryRequestSchema, SummarySchema

blp = Blueprint("compatibilities", __name__,
                description="Compatibilities of an item (endpoints 8 to 10, 12 to 20) and the family count (2)")

WRITE_AUTH = {"invalid_status": 403, "owner": item_seller_guard}


def limits():
    return compat.Limits.from_config(current_app.config)


@blp.route("/catalog_compatibilities/products_search/count_family_products")
class FamilyProductsCount(MethodView):
    @blp.auth("token")
    @compat_writes
    @blp.errors(400, 404, 429)
    @blp.arguments(FamilyCountSchema, example=examples.FAMILY_COUNT_REQUEST)
    @blp.response(200, FamilyCountResultSchema, example=examples.FAMILY_COUNT)
    def post(self, body):
        """Count the products a family selects

        Endpoint 2. Errors: 400 `validation_error`, 400 `too_many_products` (the family selects more
        than the per-request limit, 200; the message gives the count), 401 `invalid_token`,
        404 `domain_not_found`, 429 `local_rate_limited`.
        """
        return compat.count_family_products(body["domain_id"], body["attributes"], limits().max_products)


@blp.route("/items/<item_id>/compatibilities")
class ItemCompatibilities(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.etag
    @blp.arguments(CompatibilityListQuerySchema, location="query")
    @blp.response(200, CompatibilityListSchema, examples=examples.LIST_EXAMPLES)
    def get(self, query, item_id):
        """List the compatibilities of an item

        Endpoint 12. Every entry unless `limit` or `offset` is given (then `paging` too). A universal
        item answers `products: []` and `universal.domain_ids`. `ETag` (H2): a strong validator of the
        item's compatibilities, the one its writes take in `If-Match`; `If-None-Match` with it answers
        304. Errors: 400 `invalid_item_id`, 400 `validation_error`, 401 `invalid_token`,
        404 `item_not_found`.
        """
        # Read before the list, so a write committed in between makes the tag older than the body,
        # never newer: a stale If-Match is refused, never accepted. A match answers 304 here.
        blp.set_etag(history.list_etag(item_id, g.caller_id))
        # Already the schema's dump (tests/test_compat_list_wire.py): dumping 200 entries again was a
        # third of the request.
        return raw_json(compat.list_compatibilities(
            item_id, g.caller_id, query["extended"], query.get("limit"), query.get("offset"),
            current_app.config["REPUTATION_RED_CLAIMS"]))

    @blp.auth("token", **WRITE_AUTH)
    @compat_writes
    @blp.errors(400, 404, 429)
    @blp.compat_write
    @blp.arguments(CompatibilitiesCreateSchema, examples=examples.CREATE_REQUEST_EXAMPLES)
    @blp.response(200, CreatedCountSchema, examples=examples.CREATE_EXAMPLES)
    def post(self, body, item_id):
        """Add compatibilities, set the item universal, or copy another item's

        Endpoints 8 and 9. Errors: 400 `validation_error` (required fields, identifier format, note
        over 500 characters), `invalid_arguments` (nothing to add, or universal with products),
        `too_many_products`, `too_many_families`, `site_mismatch`, `not_child_product`,
        `domain_not_compatible`, `category_not_configured`, `family_without_products`, `item_is_universal`,
        `item_has_compatibilities`, `universal_not_allowed`, `notes_disabled`, `restrictions_disabled`,
        `restriction_not_allowed`, `repeated_restriction_attribute`, `repeated_restriction_value`,
        `repeated_restriction_group`, `too_many_restriction_groups`, `too_many_restriction_values`,
        `too_many_compatibilities`, `invalid_item_id`, `invalid_copy_source`,
        `copy_source_without_compatibilities`; 403 `invalid_token`, `forbidden`; 404 `item_not_found`,
        `product_not_found`, `domain_not_found`; 429 `local_rate_limited`.
        H3: optional `If-Match`; 412 `precondition_failed` (nothing written) when it is not the
        item's current ETag; the answer carries the new `ETag`.
        """
        return compat.add_compatibilities(item_id, body, g.caller_id, limits())

    @blp.auth("token", **WRITE_AUTH)
    @compat_writes
    @blp.errors(400, 404, 429)
    @blp.compat_write
    @blp.arguments(CompatibilitiesPutSchema, example=examples.PUT_REQUEST)
    @blp.response(200, CompatibilitiesPutEchoSchema, example=examples.PUT_ECHO)
    def put(self, body, item_id):
        """Create, update and delete compatibilities in one transaction

        Endpoint 10. Deletes first, then creates (and copies `create.item_to_copy`, only the vehicles
        the item lacks), then updates; if any part fails nothing is written. Answers the processed
        sections with `universal` and restriction codes. Errors: those of endpoint 8, plus
        404 `compatibility_not_found` (update or delete of a product the item is not compatible with)
        and 403 `catalog_compatibility_not_deletable`.
        H3: optional `If-Match`; 412 `precondition_failed` (nothing written) when it is not the
        item's current ETag; the answer carries the new `ETag`.
        """
        return compat.change_compatibilities(item_id, body, g.caller_id, limits())

    @blp.auth("token", **WRITE_AUTH)
    @compat_writes
    @blp.errors(400, 404, 429)
    @blp.compat_write
    @blp.arguments(CompatibilitiesDeleteSchema, required=False, example=examples.DELETE_FAMILIES_REQUEST)
    @blp.response(200, DeletedSchema, example=examples.DELETED)
    def delete(self, body, item_id):
        """Delete all compatibilities, or those of some product families

        Endpoints 17 (no body: every compatibility the seller made, universal included) and 18
        (`products_families`). Catalog (CATALOGO) compatibilities are kept. Errors: 400
        `validation_error`, `too_many_families`, `too_many_products`, `family_without_products`,
        `site_mismatch`, `invalid_item_id`; 403 `invalid_token`, `forbidden`; 404 `item_not_found`,
        `domain_not_found`; 429 `local_rate_limited`.
        H3: optional `If-Match`; 412 `precondition_failed` (nothing written) when it is not the
        item's current ETag; the answer carries the new `ETag`.
        """
        if body.get("products_families"):
            return compat.delete_by_families(item_id, body["products_families"], limits())
        return compat.delete_all(item_id)


@blp.route("/items/<item_id>/compatibilities/extended/check")
class ItemCompatibilitiesExtendedCheck(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.response(200, ExtendedCheckSchema, example=examples.EXTENDED_CHECK)
    def get(self, item_id):
        """Whether the item's category accepts notes and restrictions

        Endpoint 14. Errors: 400 `invalid_item_id`, 401 `invalid_token`, 404 `item_not_found`.
        """
        return compat.extended_check(item_id)


@blp.route("/items/<item_id>/compatibilities/exception")
class ItemCompatibilityException(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.response(200, CompatibilityExceptionSchema, example=examples.EXCEPTION)
    def get(self, item_id):
        """Whether the item has a compatibility exception

        Endpoint 20: true only while the item has no compatibility. Errors: 400 `invalid_item_id`,
        401 `invalid_token`, 404 `item_not_found`.
        """
        return compat.get_exception(item_id)

    @blp.auth("token", **WRITE_AUTH)
    @compat_writes
    @blp.errors(400, 404, 429)
    @blp.compat_write
    @blp.arguments(ExceptionCreateSchema, example=examples.EXCEPTION_REQUEST)
    @blp.response(200, CompatibilityExceptionSchema, example=examples.EXCEPTION_REPORTED)
    def post(self, body, item_id):
        """Report that the item's vehicle is missing from the catalog

        Endpoint 19. Errors: 400 `validation_error` (comment missing or over 255 characters),
        `item_not_active`, `item_has_compatibilities`, `category_without_compatibilities`,
        `exception_already_reported`, `invalid_item_id`; 403 `invalid_token`, `forbidden`;
        404 `item_not_found`; 429 `local_rate_limited`.
        H3: optional `If-Match`; 412 `precondition_failed` (nothing written) when it is not the
        item's current ETag; the answer carries the new `ETag`.
        """
        return compat.report_exception(item_id, body["comment"])


@blp.route("/items/<item_id>/compatibilities/<compatibility_id>")
class ItemCompatibilityById(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.response(200, CompatibilityDetailSchema, example=examples.DETAIL)
    def get(self, item_id, compatibility_id):
        """Read one compatibility

        Endpoint 13; `note_status` only for the item's seller. Errors: 400 `invalid_item_id`,
        401 `invalid_token`, 404 `item_not_found`, `compatibility_not_found`.
        """
        return compat.get_compatibility(item_id, compatibility_id, g.caller_id,
                                              current_app.config["REPUTATION_RED_CLAIMS"])

    @blp.auth("token", **WRITE_AUTH)
    @compat_writes
    @blp.errors(400, 404, 429)
    @blp.compat_write
    @blp.response(200, DeletedSchema, example=examples.DELETED_ONE)
    def delete(self, item_id, compatibility_id):
        """Delete one compatibility

        Endpoint 16; the universal setting is deleted by its id too. Errors: 400 `invalid_item_id`;
        403 `invalid_token`, `forbidden`, `catalog_compatibility_not_deletable`; 404 `item_not_found`,
        `compatibility_not_found`; 429 `local_rate_limited`.
        H3: optional `If-Match`; 412 `precondition_failed` (nothing written) when it is not the
        item's current ETag; the answer carries the new `ETag`.
        """
        return compat.delete_one(item_id, compatibility_id)


@blp.route("/items/<item_id>/compatibilities/<compatibility_id>/note")
class ItemCompatibilityNote(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.response(200, NoteSchema, example=examples.NOTE)
    def get(self, item_id, compatibility_id):
        """Read the note of one compatibility

        Endpoint 15: "" when there is none, or while it is in moderation for a caller who is not the
        seller. Errors: 400 `invalid_item_id`, 401 `invalid_token`, 404 `item_not_found`,
        `compatibility_not_found`.
        """
        return compat.get_note(item_id, compatibility_id, g.caller_id)


@blp.route("/items/compatibilities_summary")
class CompatibilitiesSummary(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.arguments(SummaryRequestSchema, example=item_examples.SUMMARY_REQUEST)
    @blp.response(200, SummarySchema(many=True), example=item_examples.SUMMARY)
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
        return compat.compatibilities_summary(g.caller_id, body["domain_id"], body["items"],
                                               current_app.config["SUMMARY_MAX_ITEMS"])


@blp.route("/items/catalog_domains/<domain_id>/compatibilities/cards", endpoint="ItemCompatibilityCards")
@blp.route("/catalog_domains/<domain_id>/compatibilities/cards", endpoint="CompatibilityCards")
class CompatibilityCards(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.arguments(CardsRequestSchema, example=item_examples.CARDS_REQUEST)
    @blp.response(200, CardSchema(many=True), example=item_examples.CARDS)
    def post(self, body, domain_id):
        """Read the suggestion and complaint cards of an item

        Endpoint 6, served with and without the `/items` prefix. One card per requested filter
        whose quantity is above zero: `SUGGESTED` counts pending suggestions, `REPUTATION` the
        compatibilities with at least one incompatibility claim. Texts are in the site's language.
        Errors: 400 `validation_error` (missing `item_id`, empty or unknown `filters`),
        `invalid_item_id`, `domain_mismatch`; 401 `invalid_token`; 403 `forbidden` (not the
        item's seller); 404 `item_not_found`, `domain_not_found`, `product_not_found`.
        """
        return compat.compatibility_cards(g.caller_id, domain_id, body["item_id"], body["filters"],
                                           body.get("product_id"))
