"""Size charts: active domains (22), search (25), domains by type (26) and a seller's own charts."""
import marshmallow as ma
from marshmallow import fields, validate

from schemas.chart_sheets import AttributeInputSchema, ValueSchema
from schemas.common import Answer, DictSchema, DirectAccess, StrictSchema, page_envelope
from schemas.vocabulary import BRAND, CHART_TYPES, SPECIFIC, STANDARD

MEASURE_TYPES = ["BODY_MEASURE", "CLOTHING_MEASURE"]
NAME_MAX = 60


def validate_chart_name(name):
    if not name.strip():
        raise ma.ValidationError("A chart name cannot be empty.")
    if len(name) > NAME_MAX:
        raise ma.ValidationError(f"A chart name has at most {NAME_MAX} characters.")
    if any(ch in name for ch in "()-"):
        raise ma.ValidationError("A chart name cannot contain '(', ')' or '-'.")


def chart_names(**kwargs):
    return fields.Dict(keys=fields.String(validate=validate.Length(equal=3)),
                       values=fields.String(validate=validate_chart_name, metadata={
                           "pattern": r"^[^()\-\x00]*\S[^()\-\x00]*$", "maxLength": NAME_MAX}),
                       validate=validate.Length(min=1), metadata={"minProperties": 1,
                           "description": f"Site id -> chart name (at most {NAME_MAX} characters, "
                                          "without '(', ')' or '-')", "example": {"MLA": "Remeras de mi marca"}},
                       **kwargs)


class DomainIdSchema(Answer, DictSchema):
    domain_id = fields.String(metadata={"example": "MLA-SNEAKERS"})


class DomainListSchema(Answer, DictSchema):
    domains = fields.List(fields.Nested(DomainIdSchema))


class ChartDomainsSearchSchema(StrictSchema):
    site_id = fields.String(required=True, metadata={"example": "MLA"})
    type = fields.String(required=True, validate=validate.OneOf([BRAND, STANDARD]))


class ChartSearchHeadersSchema(ma.Schema):
    caller_id = fields.Integer(data_key="x-caller-id", strict=False, metadata={
        "description": "The seller's user id; must be the token's user"})


class ChartSearchSchema(StrictSchema):
    domain_id = fields.String(required=True, metadata={"description": "Without site prefix", "example": "SNEAKERS"})
    site_id = fields.String(required=True, metadata={"example": "MLA"})
    seller_id = fields.Integer(required=True, strict=True, metadata={"description": "The caller's user id"})
    attributes = fields.List(fields.Nested(AttributeInputSchema), load_default=list, metadata={
        "description": "The grid_template_required attributes (and other filters) with values"})
    type = fields.String(validate=validate.OneOf(CHART_TYPES), metadata={"description": "Only charts of this type"})
    main_attribute_id = fields.String(metadata={"description": "Only charts whose size is this attribute"})


class ChartAttributeSchema(Answer, DirectAccess, DictSchema):
    id = fields.String()
    name = fields.String(allow_none=True, metadata={"optional": "when the chart's bundle or request gave none"})
    values = fields.List(fields.Nested(ValueSchema))


class ChartRowSchema(Answer, DirectAccess, DictSchema):
    id = fields.String(metadata={"description": "<chart_id>:<n>", "example": "426237:1"})
    attributes = fields.List(fields.Nested(ChartAttributeSchema), metadata={
        "description": "The row's values, plus SIZE (the value of the chart's main attribute)"})


class ChartSchema(Answer, DirectAccess, DictSchema):
    id = fields.String()
    names = fields.Dict(keys=fields.String(), values=fields.String())
    domain_id = fields.String(metadata={"description": "Without site prefix"})
    site_id = fields.String()
    type = fields.String(metadata={"description": "BRAND, STANDARD or SPECIFIC", "enum": list(CHART_TYPES)})
    seller_id = fields.Integer(allow_none=True)
    main_attribute_id = fields.String()
    secondary_attribute_id = fields.String(allow_none=True)
    measure_type = fields.String(allow_none=True)
    attributes = fields.List(fields.Nested(ChartAttributeSchema))
    # Not the Chart model's `rows` backref (a query per chart): the sized rows its service attached,
    # none (so []) in search results.
    rows = fields.List(fields.Nested(ChartRowSchema), attribute="sized_rows", dump_default=list,
                       metadata={"description": "Empty in search results"})


ChartSearchResultSchema = page_envelope("ChartSearchResultSchema", "charts", fields.Nested(ChartSchema),
                                        "BRAND, then STANDARD, then the caller's SPECIFIC charts, by id")


class AttributeRefSchema(StrictSchema):
    id = fields.String(required=True, metadata={"example": "SIZE"})
    site_id = fields.String(metadata={"example": "MLA"})


class MainAttributeSchema(StrictSchema):
    attributes = fields.List(fields.Nested(AttributeRefSchema), required=True,
                             validate=validate.Length(equal=1, error="Name exactly one attribute."))


class RowInputSchema(StrictSchema):
    attributes = fields.List(fields.Nested(AttributeInputSchema), required=True)


class ChartCreateSchema(StrictSchema):
    names = chart_names(required=True)
    domain_id = fields.String(required=True, metadata={"description": "Without site prefix", "example": "T_SHIRTS"})
    site_id = fields.String(required=True, metadata={"example": "MLA"})
    type = fields.String(validate=validate.OneOf([SPECIFIC]), metadata={"description": "Only SPECIFIC"})
    measure_type = fields.String(validate=validate.OneOf(MEASURE_TYPES))
    main_attribute = fields.Nested(MainAttributeSchema, required=True)
    secondary_attribute = fields.Nested(MainAttributeSchema)
    attributes = fields.List(fields.Nested(AttributeInputSchema), load_default=list, metadata={
        "description": "Chart-level values (GENDER, BRAND, …), never repeated in rows"})
    rows = fields.List(fields.Nested(RowInputSchema), required=True)


class ChartRenameSchema(StrictSchema):
    names = chart_names(required=True)


class ChartDeletedSchema(Answer, ma.Schema):
    id = fields.String()
    deleted = fields.Boolean()
