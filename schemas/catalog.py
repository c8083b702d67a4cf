"""The compatibility catalog: the domain dump (endpoint 1) and restriction values (endpoint 7)."""
import marshmallow as ma
from marshmallow import fields, validate

from schemas.common import Answer

STATUSES = ("ENABLED", "DISABLED")


class CategoryRuleSchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "Category identifier", "example": "MLA1747"})
    required = fields.Boolean(metadata={"description": "true: compatibilities are mandatory in this category"})
    note_status = fields.String(validate=validate.OneOf(STATUSES),
                                metadata={"description": "Whether notes may be reported"})
    restrictions_status = fields.String(validate=validate.OneOf(STATUSES),
                                        metadata={"description": "Whether position restrictions may be reported"})
    universal_status = fields.String(validate=validate.OneOf(STATUSES),
                                     metadata={"description": "Whether universal compatibilities are allowed"})


class CompatibleDomainSchema(Answer, ma.Schema):
    compatible_domain_id = fields.String(metadata={"description": "Domain the item can be made compatible with",
                                                   "example": "MLA-CARS_AND_VANS"})
    type = fields.String(metadata={"description": "Only EXTENSION supports loading compatibilities",
                                   "example": "EXTENSION"})
    required = fields.Boolean(metadata={"description": "Whether reporting is mandatory for the domain pair"})
    restrictions = fields.List(fields.Raw(), metadata={"description": "Restrictions of the pair (may be empty)"})
    categories = fields.List(fields.Nested(CategoryRuleSchema),
                             metadata={"description": "Categories that support loading compatibilities"})


class CompatibilityDomainEntrySchema(Answer, ma.Schema):
    domain_id = fields.String(metadata={"description": "Domain of the item side", "example": "MLA-BRAKE_PADS"})
    main = fields.Boolean(metadata={"description": "Whether the domain is a main one"})
    compatibilities = fields.List(fields.Nested(CompatibleDomainSchema),
                                  metadata={"description": "Compatible domains"})


class RestrictionValuesQuerySchema(ma.Schema):
    main_domain_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                                   metadata={"description": "Vehicle (product) domain", "example": "MLA-CARS_AND_VANS"})
    secondary_domain_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                                        metadata={"description": "Item domain", "example": "MLA-BRAKE_PADS"})


class RestrictionValueSchema(Answer, ma.Schema):
    value_id = fields.String(metadata={"example": "13701104"})
    value_name = fields.String(metadata={"example": "Delantera"})


class RestrictionAttributeValuesSchema(Answer, ma.Schema):
    attribute_id = fields.String(metadata={"description": "Restriction attribute", "example": "POSITION"})
    values = fields.List(fields.Nested(RestrictionValueSchema))


class RestrictionValuesSchema(Answer, ma.Schema):
    attributes_values = fields.List(fields.Nested(RestrictionAttributeValuesSchema),
                                    metadata={"description": "Allowed restriction values; empty when the pair "
                                                             "has none"})
