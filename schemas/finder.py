"""The vehicle finder (extensions.md F): catalog domains (F1), top values (F2), product search (F3)
and products (F4)."""
import marshmallow as ma
from marshmallow import fields, validate, validates_schema

from schemas.common import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_OFFSET_MAX, Answer, StrictSchema, page_envelope
from schemas.vocabulary import ATTRIBUTE_HIERARCHIES

TOP_VALUES_LIMIT_DEFAULT, TOP_VALUES_LIMIT_MAX = 50, 1000
SORT_ORDERS = ("ASC", "DESC")
MAX_VALUE_IDS = 200


class DomainAttributeSchema(Answer, ma.Schema):
    id = fields.String(metadata={"example": "BRAND"})
    name = fields.String(metadata={"example": "Marca"})
    value_type = fields.String(metadata={"description": "list, string, number…", "example": "list"})
    hierarchy = fields.String(metadata={"description": "PARENT_PK identifies the parent vehicle (brand, model, "
                                                       "year); CHILD_PK refines it", "example": "PARENT_PK",
                                        "enum": list(ATTRIBUTE_HIERARCHIES)})
    relevance = fields.Integer(metadata={"description": "1 primary, 2 secondary, 3 optional", "example": 1})


class CatalogDomainSchema(Answer, ma.Schema):
    id = fields.String(metadata={"example": "MLA-CARS_AND_VANS"})
    name = fields.String(metadata={"example": "Autos y camionetas"})
    site_id = fields.String(metadata={"example": "MLA"})
    attributes = fields.List(fields.Nested(DomainAttributeSchema),
                             metadata={"description": "In refinement order"})


class KnownAttributeSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                       metadata={"description": "Attribute of the domain", "example": "BRAND"})
    value_id = fields.String(validate=validate.Length(min=1, max=100), metadata={"example": "60249"})
    value_ids = fields.List(fields.String(validate=validate.Length(min=1, max=100)),
                            validate=validate.Length(min=1, max=MAX_VALUE_IDS),
                            metadata={"description": "Any of these values", "example": ["60249"]})
    OPENAPI = {"oneOf": [{"title": "One value", "required": ["value_id"]},
                         {"title": "Any of several values", "required": ["value_ids"]}]}

    @validates_schema
    def _one_way(self, data, **kwargs):
        if ("value_id" in data) == ("value_ids" in data):
            raise ma.ValidationError("give exactly one of value_id or value_ids", "value_ids")


class TopValuesArgsSchema(StrictSchema):
    known_attributes = fields.List(fields.Nested(KnownAttributeSchema), load_default=list,
                                   metadata={"description": "Every one must match (a value of value_ids)"})
    limit = fields.Integer(
        load_default=TOP_VALUES_LIMIT_DEFAULT, strict=True,
        validate=validate.Range(min=1, max=TOP_VALUES_LIMIT_MAX,
                                error=f"limit must be between 1 and {TOP_VALUES_LIMIT_MAX}"),
        metadata={"description": f"At most this many values (default {TOP_VALUES_LIMIT_DEFAULT}, "
                                 f"at most {TOP_VALUES_LIMIT_MAX})"})


class TopValueSchema(Answer, ma.Schema):
    id = fields.String(allow_none=True, metadata={"example": "62109"})
    name = fields.String(allow_none=True, metadata={"example": "Gol"})
    metric = fields.Integer(metadata={"description": "Child products that match and carry the value"})


class SortSchema(StrictSchema):
    attribute_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                                 metadata={"example": "VEHICLE_YEAR"})
    order = fields.String(load_default="ASC", validate=validate.OneOf(SORT_ORDERS))


class ProductSearchArgsSchema(StrictSchema):
    domain_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                              metadata={"example": "MLA-CARS_AND_VANS"})
    site_id = fields.String(required=True, validate=validate.Length(min=1, max=3), metadata={"example": "MLA"})
    known_attributes = fields.List(fields.Nested(KnownAttributeSchema), load_default=list)
    # Strict in a JSON body: 2.7 or "3" is a 400, not a page of 2 or 3 (a query string's are text).
    limit = fields.Integer(
        load_default=PAGE_LIMIT_DEFAULT, strict=True,
        validate=validate.Range(min=1, max=PAGE_LIMIT_MAX, error=f"limit must be between 1 and {PAGE_LIMIT_MAX}"),
        metadata={"description": f"Page size (default {PAGE_LIMIT_DEFAULT}, at most {PAGE_LIMIT_MAX})"})
    offset = fields.Integer(
        load_default=0, strict=True,
        validate=validate.Range(min=0, max=PAGE_OFFSET_MAX, error=f"offset must be between 0 and {PAGE_OFFSET_MAX}"),
        metadata={"description": f"Position of the first result (default 0, at most {PAGE_OFFSET_MAX})"})
    sort = fields.Nested(SortSchema, metadata={"description": "By the attribute's value name; default by id"})


class ProductValueSchema(Answer, ma.Schema):
    id = fields.String(allow_none=True, metadata={"example": "60249"})
    name = fields.String(allow_none=True, metadata={"example": "Volkswagen"})


class ProductAttributeSchema(Answer, ma.Schema):
    id = fields.String(metadata={"example": "BRAND"})
    name = fields.String(metadata={"example": "Marca"})
    values = fields.List(fields.Nested(ProductValueSchema))


class FinderProductSchema(Answer, ma.Schema):
    id = fields.String(metadata={"example": "MLA15903638"})
    name = fields.String()
    parent_id = fields.String(allow_none=True, metadata={"description": "null for a parent product"})
    attributes = fields.List(fields.Nested(ProductAttributeSchema))


class ProductSchema(Answer, ma.Schema):
    id = fields.String(metadata={"example": "MLA15903638"})
    name = fields.String()
    domain_id = fields.String(metadata={"example": "MLA-CARS_AND_VANS"})
    site_id = fields.String(metadata={"example": "MLA"})
    parent_id = fields.String(allow_none=True, metadata={"description": "null for a parent product"})
    attributes = fields.List(fields.Nested(ProductAttributeSchema))


ProductPageSchema = page_envelope("ProductPageSchema", "results", fields.Nested(FinderProductSchema),
                                  "The matching child products of this page")


def _product_body(product, full=False):
    body = {"id": product.id, "name": product.name}
    if full:
        body.update(domain_id=product.domain_id, site_id=product.site_id)
    body["parent_id"] = product.parent_id
    body["attributes"] = [{"id": a.id, "name": a.name, "values": [{"id": v.id, "name": v.name} for v in a.values]}
                          for a in product.attributes]
    return body


def product_page_body(page):
    """ProductPageSchema's dump of a page, key order included, written out: marshmallow took most
    of a page's time. tests/finder/test_wire.py holds the two equal."""
    return {"results": [_product_body(p) for p in page.items],
            "paging": {"total": page.total, "offset": page.offset, "limit": page.limit}}
