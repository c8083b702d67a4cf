"""Items (endpoint 3), seller item searches (4, 5), compatibility summaries (11) and cards (6)."""
import datetime

import marshmallow as ma
from marshmallow import fields, validate

from schemas.bundle import ITEM_STATUSES
from schemas.common import Answer, DictSchema, DirectAccess, PagingQuerySchema, StrictSchema, page_envelope
from schemas.vocabulary import ITEM_ID_PATTERN

SEARCH_TAGS = ("incomplete_compatibilities", "pending_compatibilities")
CARD_FILTERS = ("REPUTATION", "SUGGESTED")


class UtcDateTime(fields.DateTime):
    """ISO 8601 in UTC with a `Z` (2026-01-10T12:00:00Z); naive values are already UTC."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")


class AttributeValueSchema(Answer, DirectAccess, ma.Schema):
    id = fields.String(allow_none=True)
    name = fields.String(allow_none=True)
    struct = fields.Raw(allow_none=True)


class ItemAttributeSchema(Answer, DirectAccess, DictSchema):
    """A stored attribute: every key is answered, null (values: []) when the seller left it out."""
    id = fields.String(dump_default=None, metadata={"example": "HAS_COMPATIBILITIES"})
    name = fields.String(allow_none=True, dump_default=None, metadata={"example": "Tiene compatibilidades"})
    value_id = fields.String(allow_none=True, dump_default=None, metadata={"example": "242085"})
    value_name = fields.String(allow_none=True, dump_default=None, metadata={"example": "Sí"})
    values = fields.List(fields.Nested(AttributeValueSchema), dump_default=list)
    value_type = fields.String(allow_none=True, dump_default=None, metadata={"example": "boolean"})


class ItemSchema(Answer, DirectAccess, ma.Schema):
    id = fields.String(metadata={"description": "Item identifier", "example": "MLA100"})
    site_id = fields.String(metadata={"description": "Site of the listing", "example": "MLA"})
    title = fields.String(metadata={"description": "Title of the listing"})
    seller_id = fields.Integer(metadata={"description": "The seller's user id", "example": 1001})
    category_id = fields.String(metadata={"description": "Category of the listing", "example": "MLA1747"})
    domain_id = fields.String(metadata={"description": "Domain of the listing", "example": "MLA-BRAKE_PADS"})
    official_store_id = fields.Integer(allow_none=True, metadata={"description": "Official store, or null"})
    status = fields.String(metadata={"description": "One of " + ", ".join(ITEM_STATUSES), "enum": list(ITEM_STATUSES)})
    price = fields.Float(allow_none=True, metadata={"description": "Price in currency_id"})
    currency_id = fields.String(allow_none=True, metadata={"description": "Currency of the price"})
    tags = fields.List(fields.String(), metadata={
        "description": "incomplete_compatibilities: the item must report compatibilities; "
                       "pending_compatibilities: the item has compatibility suggestions"})
    warranty = fields.String(allow_none=True, metadata={"description": "Warranty text"})
    catalog_product_id = fields.String(allow_none=True, metadata={"description": "Catalog product, or null"})
    parent_item_id = fields.String(allow_none=True, metadata={"description": "Item this one was relisted from"})
    deal_ids = fields.List(fields.Raw(), metadata={"description": "Deals the item takes part in"})
    automatic_relist = fields.Boolean(metadata={"description": "Whether the item relists itself"})
    date_created = UtcDateTime(metadata={"description": "ISO 8601 UTC", "example": "2026-01-10T12:00:00Z"})
    last_updated = UtcDateTime(metadata={"description": "ISO 8601 UTC", "example": "2026-01-11T08:30:00Z"})
    health = fields.Float(allow_none=True, metadata={"description": "Listing quality score, 0 to 1"})
    catalog_listing = fields.Boolean(metadata={"description": "Whether the item is a catalog listing"})
    attributes = fields.List(fields.Nested(ItemAttributeSchema), attribute="shown_attributes", metadata={
        "description": "The item's attributes; HAS_COMPATIBILITIES is present exactly when the item "
                       "has at least one compatibility (the universal setting counts)"})


_TAG = "(" + "|".join(SEARCH_TAGS) + ")"
TAGS_PATTERN = rf"^[\s,]*{_TAG}(\s*,[\s,]*{_TAG})*[\s,]*$"


def _validate_tags(value):
    tags = [t.strip() for t in value.split(",") if t.strip()]
    unknown = [t for t in tags if t not in SEARCH_TAGS]
    if not tags or unknown:
        raise ma.ValidationError(f"tags must be one or more of {', '.join(SEARCH_TAGS)} (comma-separated)")


class ItemSearchQuerySchema(PagingQuerySchema):
    tags = fields.String(validate=_validate_tags, metadata={"pattern": TAGS_PATTERN,
        "description": "incomplete_compatibilities and/or pending_compatibilities, comma-separated "
                       "(an item must carry all of them)"})
    status = fields.String(validate=validate.OneOf(
        ITEM_STATUSES, error="status must be one of " + ", ".join(ITEM_STATUSES)))
    has_compatibilities = fields.Boolean(metadata={
        "description": "true: only items with at least one compatibility; false: only items without"})
    search_type = fields.String(validate=validate.OneOf(["scan"]), metadata={
        "description": "scan: page through every item, past the offset limit, with `scroll_id`"})
    scroll_id = fields.String(validate=validate.Length(min=1, max=64), metadata={
        "description": "A scan's cursor, from its first answer: the next page (the filters are the scan's)"})


ItemSearchSchema = page_envelope(
    "ItemSearchSchema", "results", fields.Pluck(ItemSchema, "id"), "Item ids, ascending",
    seller_id=fields.String(metadata={"description": "The seller searched (a string, as the marketplace "
                                                    "answers it)", "example": "1001"}),
    query=fields.String(allow_none=True, metadata={"description": "Free-text query; always null here"}),
    filters=fields.Dict(metadata={"description": "The filters applied: tags, status, has_compatibilities"}),
    scroll_id=fields.String(metadata={"optional": "unless search_type=scan",
                                      "description": "search_type=scan only: send it back for the next page"}))


class SummaryRequestSchema(StrictSchema):
    domain_id = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={
        "description": "The items' own domain (all their compatibilities are counted) or a vehicle domain "
                       "they can be compatible with (only compatibilities in that domain are counted)",
        "example": "MLA-CARS_AND_VANS"})
    items = fields.List(fields.String(validate=validate.Length(min=1, max=40), metadata={"pattern": ITEM_ID_PATTERN}),
                        required=True,
                        validate=validate.Length(min=1, error="items must name at least one item id"),
                        metadata={"description": "Item ids of the caller; answered in this order, "
                                                 "a repeated id once"})


class SummarySchema(Answer, ma.Schema):
    item_id = fields.String(metadata={"description": "Item identifier"})
    item_title = fields.String(metadata={"description": "Title of the item"})
    compatibilities_count = fields.Integer(metadata={"description": "Compatibilities counted (universal counts 1)"})
    compatibilities_claims_count = fields.Integer(metadata={
        "description": "Incompatibility claims against the item's compatibilities"})
    notes_count = fields.Integer(metadata={"description": "Compatibilities with a note"})
    restrictions_count = fields.Integer(metadata={"description": "Compatibilities with restrictions"})


class CardsRequestSchema(StrictSchema):
    item_id = fields.String(required=True, validate=validate.Length(min=1, max=40),
                            metadata={"description": "An item of the caller", "example": "MLA100",
                                      "pattern": ITEM_ID_PATTERN})
    product_id = fields.String(validate=validate.Length(min=1, max=40), metadata={
        "description": "Optional hint; when given it must be a product of the path's domain"})
    filters = fields.List(
        fields.String(validate=validate.OneOf(CARD_FILTERS, error="filters accept " + " and ".join(CARD_FILTERS))),
        required=True, validate=validate.Length(min=1, error="filters must name REPUTATION and/or SUGGESTED"),
        metadata={"description": "REPUTATION and/or SUGGESTED; one card per filter with a quantity above zero"})


class CardSchema(Answer, ma.Schema):
    title = fields.String(metadata={"description": "Display text with the quantity, in the site's language",
                                    "example": "Tienes 3 sugerencias de compatibilidad"})
    subtitle = fields.String(metadata={"description": "Display text: what to do"})
    filter = fields.String(metadata={"description": "SUGGESTED or REPUTATION", "example": "SUGGESTED"})
    quantity = fields.Integer(metadata={"description": "Pending suggestions, or compatibilities with claims",
                                        "example": 3})
