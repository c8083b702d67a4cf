"""Responses of the compatibility endpoints (2, 8 to 10, 12 to 20)."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import PAGE_LIMIT_MAX, PAGE_OFFSET_MAX, PagingSchema
from schemas.compatibility_inputs import (
    FamilyCreateElementSchema,
    FamilyElementSchema,
    ProductCreateElementSchema,
    ProductElementSchema,
    ProductsGroupSchema,
)


class OutSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    def get_attribute(self, obj, attr, default):
        # Keys only: marshmallow falls back to attributes, and dict.update / dict.values would
        # dump as sections of their own.
        if isinstance(obj, dict):
            return obj.get(attr, default)
        return super().get_attribute(obj, attr, default)


class CodedRestrictionValueSchema(OutSchema):
    value_id = fields.String()
    value_name = fields.String(allow_none=True)
    value_code = fields.Integer(allow_none=True, metadata={"description": "Stable code (update and copy echoes)"})


class CodedRestrictionGroupSchema(OutSchema):
    values = fields.List(fields.Nested(CodedRestrictionValueSchema))


class CodedRestrictionSchema(OutSchema):
    attribute_id = fields.String()
    attribute_code = fields.Integer(allow_none=True, metadata={"description": "Stable code (update and copy echoes)"})
    attribute_values = fields.List(fields.Nested(CodedRestrictionGroupSchema),
                                   metadata={"description": "Alternative groups of values"})


class CompatReputationSchema(OutSchema):
    level = fields.String(metadata={"description": "RED from the configured number of claims on, else GREEN"})
    claims_count = fields.Integer(metadata={"description": "Incompatibility claims on this vehicle"})


class CompatibilityEntrySchema(OutSchema):
    id = fields.String()
    domain_id = fields.String(allow_none=True)
    catalog_product_id = fields.String(allow_none=True)
    catalog_product_name = fields.String(allow_none=True)
    source = fields.String(metadata={"description": "SELLER (made through this API) or CATALOGO"})
    note = fields.String(metadata={"description": "Shown to others than the seller once APPROVED or CHECKED"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema), metadata={"description": "Absent when none"})
    reputation = fields.Nested(CompatReputationSchema, metadata={"description": "Absent without claims"})


class CompatibilityDetailSchema(CompatibilityEntrySchema):
    note_status = fields.String(allow_none=True, metadata={
        "description": "PENDING, APPROVED or CHECKED; only for the item's seller"})
    universal = fields.Boolean(metadata={"description": "Present (true) for the universal setting"})


class UniversalSchema(OutSchema):
    domain_ids = fields.List(fields.String(), metadata={"description": "Top domains the item is compatible with"})


class CompatibilityListSchema(OutSchema):
    products = fields.List(fields.Nested(CompatibilityEntrySchema))
    catalog_compatibilities_count = fields.Integer(metadata={"description": "Compatibilities of source CATALOGO"})
    universal = fields.Nested(UniversalSchema, metadata={"description": "Only for a universal item"})
    paging = fields.Nested(PagingSchema, metadata={"description": "Only when limit or offset is given"})


class CompatibilityListQuerySchema(ma.Schema):
    extended = fields.Boolean(load_default=False, metadata={
        "description": "true adds note, restrictions and reputation to each entry"})
    limit = fields.Integer(validate=ma.validate.Range(min=1, max=PAGE_LIMIT_MAX,
                                                      error=f"limit must be between 1 and {PAGE_LIMIT_MAX}"),
                           metadata={"description": "Page size; without limit and offset every entry is returned"})
    offset = fields.Integer(validate=ma.validate.Range(min=0, max=PAGE_OFFSET_MAX,
                                                       error=f"offset must be between 0 and {PAGE_OFFSET_MAX}"))


class CreatedCountSchema(OutSchema):
    created_compatibilities_count = fields.Integer(metadata={
        "description": "Compatibilities added (products the item already had are not counted)"})
    item_id = fields.String(metadata={"description": "Copy only: the item copied from"})
    extended_information = fields.Boolean(metadata={"description": "Copy only"})
    products = fields.List(fields.Nested(lambda: CopiedSchema()), metadata={
        "description": "Copy only: the compatibilities written, restrictions with their codes"})


class CopiedSchema(OutSchema):
    id = fields.String()
    catalog_product_id = fields.String()
    domain_id = fields.String()
    creation_source = fields.String()
    note = fields.String()
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema))


def _echo_of(schema_class):
    """An input element as echoed: the same fields, restrictions carrying their codes."""
    return type(f"{schema_class.__name__.replace('Schema', '')}EchoSchema", (OutSchema,), {
        **{name: field for name, field in schema_class._declared_fields.items() if name != "restrictions"},
        "restrictions": fields.List(fields.Nested(CodedRestrictionSchema)),
    })


class CreateEchoSchema(OutSchema):
    products = fields.List(fields.Nested(_echo_of(ProductCreateElementSchema)))
    products_group = fields.List(fields.Nested(_echo_of(ProductsGroupSchema)))
    products_families = fields.List(fields.Nested(_echo_of(FamilyCreateElementSchema)))
    universal = fields.Boolean()
    item_to_copy = fields.Nested(CreatedCountSchema)


class SectionEchoSchema(OutSchema):
    products = fields.List(fields.Nested(_echo_of(ProductElementSchema)))
    products_families = fields.List(fields.Nested(_echo_of(FamilyElementSchema)))
    universal = fields.Boolean()


class CompatibilitiesPutEchoSchema(OutSchema):
    create = fields.Nested(CreateEchoSchema)
    update = fields.Nested(SectionEchoSchema)
    delete = fields.Nested(SectionEchoSchema)


class DeletedSchema(OutSchema):
    deleted_compatibilities = fields.List(fields.String(), metadata={"description": "Ids of the deleted entries"})


class ExtendedCheckSchema(OutSchema):
    note = fields.String(metadata={"description": "\"true\" when the category accepts notes"})
    restrictions = fields.String(metadata={"description": "\"true\" when the category accepts restrictions"})


class NoteSchema(OutSchema):
    note = fields.String()


class CompatibilityExceptionSchema(OutSchema):
    item_id = fields.String()
    has_exception = fields.Boolean()
    comment = fields.String()


class FamilyCountResultSchema(OutSchema):
    count = fields.Integer(metadata={"description": "Number of child products the family selects"})
