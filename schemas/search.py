"""Item search: its query arguments and the marketplace's search response shape."""
import marshmallow as ma
from marshmallow import fields, validate

from schemas.common import Answer, Inline, PagingQuerySchema, page_envelope

Q_MAX_LENGTH = 200
SORT_IDS = ("relevance", "price_asc", "price_desc")


def _not_blank(value):
    if not value.strip():
        raise ma.ValidationError("q must contain at least one non-blank character")


class SearchQueryArgsSchema(PagingQuerySchema):
    q = fields.String(
        required=True,
        validate=[validate.Length(max=Q_MAX_LENGTH, error=f"q must be at most {Q_MAX_LENGTH} characters"),
                  _not_blank],
        metadata={"description": "Words that every result's title holds (accents and case ignored; "
                                 "each word also matches as a prefix)", "example": "pastillas freno"},
    )
    sort = fields.String(
        load_default="relevance",
        validate=validate.OneOf(SORT_IDS, error="sort must be one of: " + ", ".join(SORT_IDS)),
        metadata={"description": "Order of the results: " + ", ".join(SORT_IDS)},
    )
    category = fields.String(
        validate=validate.Regexp(r"^[^\x00-\x1f]{1,40}$",
                                 error="category must be a category id of at most 40 characters"),
        metadata={"description": "Only items of this category of the site (an id of available_filters)",
                  "example": "MLA1747"},
    )


class SearchSellerSchema(Answer, ma.Schema):
    """The seller of an item row: its `seller_id`."""
    id = fields.Integer(attribute="seller_id", metadata={"description": "Seller's user id"})


class SearchResultSchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "Item id", "example": "MLA100"})
    site_id = fields.String()
    title = fields.String()
    price = fields.Float(allow_none=True)
    currency_id = fields.String(allow_none=True)
    category_id = fields.String()
    domain_id = fields.String()
    seller = Inline(SearchSellerSchema)
    official_store_id = fields.Integer(allow_none=True)
    catalog_product_id = fields.String(allow_none=True)
    catalog_listing = fields.Boolean()
    status = fields.String(metadata={"description": "Always active: only active items are searched"})


class SearchSortSchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "Value of the `sort` argument", "example": "price_asc"})
    name = fields.String(metadata={"description": "Label in the site's language", "example": "Menor precio"})


class FilterValueSchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "Value of the filter's argument", "example": "MLA1747"})
    name = fields.String(allow_none=True)
    results = fields.Integer(metadata={"optional": "in the filters applied",
                                       "description": "Matching items with this value (available filters)"})


class SearchFilterSchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "Name of the filter's query argument", "example": "category"})
    name = fields.String(metadata={"example": "Categorías"})
    type = fields.String(metadata={"example": "text"})
    values = fields.List(fields.Nested(FilterValueSchema))


SearchResponseSchema = page_envelope(
    "SearchResponseSchema", "results", fields.Nested(SearchResultSchema),
    "This page of active items whose titles hold every word",
    site_id=fields.String(metadata={"description": "Site searched", "example": "MLA"}),
    query=fields.String(metadata={"description": "The q argument as received"}),
    paging=None, results=None,
    sort=fields.Nested(SearchSortSchema, metadata={"description": "The sort applied"}),
    available_sorts=fields.List(fields.Nested(SearchSortSchema), metadata={"description": "The other sorts"}),
    filters=fields.List(fields.Nested(SearchFilterSchema), metadata={"description": "Filters applied"}),
    available_filters=fields.List(fields.Nested(SearchFilterSchema),
                                  metadata={"description": "Filters that narrow the results, with counts"}))
