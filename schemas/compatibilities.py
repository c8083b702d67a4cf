"""Responses of the compatibility endpoints (2, 8 to 10, 12 to 20)."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import DictSchema, PagingSchema, limit_argument, offset_argument
from schemas.compatibility_inputs import (
    FamilyCreateElementSchema,
    FamilyElementSchema,
    ProductCreateElementSchema,
    ProductElementSchema,
    ProductsGroupSchema,
)


class CodedRestrictionValueSchema(DictSchema):
    value_id = fields.String(metadata={"description": "Value id from endpoint 7"})
    value_name = fields.String(allow_none=True, metadata={"description": "Value name from endpoint 7"})
    value_code = fields.Integer(allow_none=True, metadata={"description": "Stable code (update and copy echoes)"})


class CodedRestrictionGroupSchema(DictSchema):
    values = fields.List(fields.Nested(CodedRestrictionValueSchema), metadata={
        "description": "Values of one alternative group"})


class CodedRestrictionSchema(DictSchema):
    attribute_id = fields.String(metadata={"description": "Restriction attribute, e.g. POSITION"})
    attribute_code = fields.Integer(allow_none=True, metadata={"description": "Stable code (update and copy echoes)"})
    attribute_values = fields.List(fields.Nested(CodedRestrictionGroupSchema),
                                   metadata={"description": "Alternative groups of values"})


class CompatReputationSchema(DictSchema):
    level = fields.String(metadata={"description": "RED from the configured number of claims on, else GREEN"})
    claims_count = fields.Integer(metadata={"description": "Incompatibility claims on this vehicle"})


class CompatibilityEntrySchema(DictSchema):
    id = fields.String(metadata={"description": "Compatibility id"})
    domain_id = fields.String(allow_none=True, metadata={"description": "Domain of the vehicle"})
    catalog_product_id = fields.String(allow_none=True, metadata={"description": "The vehicle (child product)"})
    catalog_product_name = fields.String(allow_none=True, metadata={"description": "The vehicle's name"})
    source = fields.String(metadata={"description": "SELLER (made through this API) or CATALOGO"})
    note = fields.String(metadata={"description": "Shown to others than the seller once APPROVED or CHECKED"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema), metadata={"description": "Absent when none"})
    reputation = fields.Nested(CompatReputationSchema, metadata={"description": "Absent without claims"})


class CompatibilityDetailSchema(CompatibilityEntrySchema):
    note_status = fields.String(allow_none=True, metadata={
        "description": "PENDING, APPROVED or CHECKED; only for the item's seller"})
    universal = fields.Boolean(metadata={"description": "Present (true) for the universal setting"})


class UniversalSchema(DictSchema):
    id = fields.String(metadata={"description": "Id of the universal setting (DELETE it to remove the setting)"})
    domain_ids = fields.List(fields.String(), metadata={"description": "Top domains the item is compatible with"})


class CompatibilityListSchema(DictSchema):
    products = fields.List(fields.Nested(CompatibilityEntrySchema), metadata={
        "description": "The item's compatibilities with vehicles ([] for a universal item)"})
    catalog_compatibilities_count = fields.Integer(metadata={"description": "Compatibilities of source CATALOGO"})
    universal = fields.Nested(UniversalSchema, metadata={"description": "Only for a universal item"})
    paging = fields.Nested(PagingSchema, metadata={"description": "Only when limit or offset is given"})


class CompatibilityListQuerySchema(ma.Schema):
    extended = fields.Boolean(load_default=False, metadata={
        "description": "true adds note, restrictions and reputation to each entry"})
    limit = limit_argument("Page size (50 when only offset is given); without limit and offset every entry is returned")
    offset = offset_argument("Position of the first result (0 when only limit is given)")


class CreatedCountSchema(DictSchema):
    created_compatibilities_count = fields.Integer(metadata={
        "description": "Compatibilities added (products the item already had are not counted)"})
    item_id = fields.String(metadata={"description": "Copy only: the item copied from"})
    extended_information = fields.Boolean(metadata={"description": "Copy only"})
    products = fields.List(fields.Nested(lambda: CopiedSchema()), metadata={
        "description": "Copy only: the compatibilities written, restrictions with their codes"})


class CopiedSchema(DictSchema):
    id = fields.String(metadata={"description": "Id of the new compatibility"})
    catalog_product_id = fields.String(metadata={"description": "The vehicle"})
    domain_id = fields.String(metadata={"description": "Domain of the vehicle"})
    creation_source = fields.String(metadata={"description": "As in the copied item"})
    note = fields.String(metadata={"description": "Copied note (extended_information), PENDING again"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema), metadata={
        "description": "Copied restrictions with their codes"})


ECHOED = "The elements as sent, restrictions with attribute_code and value_code"


def _echo_of(schema_class):
    """An input element as echoed: the same fields, restrictions carrying their codes."""
    return type(f"{schema_class.__name__.replace('Schema', '')}EchoSchema", (DictSchema,), {
        **{name: field for name, field in schema_class._declared_fields.items() if name != "restrictions"},
        "restrictions": fields.List(fields.Nested(CodedRestrictionSchema)),
    })


class CreateEchoSchema(DictSchema):
    products = fields.List(fields.Nested(_echo_of(ProductCreateElementSchema)), metadata={"description": ECHOED})
    products_group = fields.List(fields.Nested(_echo_of(ProductsGroupSchema)), metadata={"description": ECHOED})
    products_families = fields.List(fields.Nested(_echo_of(FamilyCreateElementSchema)),
                                    metadata={"description": ECHOED})
    universal = fields.Boolean(metadata={"description": "Whether the section set the universal setting"})
    item_to_copy = fields.Nested(CreatedCountSchema, metadata={"description": "What the copy wrote"})


class SectionEchoSchema(DictSchema):
    products = fields.List(fields.Nested(_echo_of(ProductElementSchema)), metadata={"description": ECHOED})
    products_families = fields.List(fields.Nested(_echo_of(FamilyElementSchema)), metadata={"description": ECHOED})
    universal = fields.Boolean(metadata={"description": "Whether the section removed the universal setting"})


class CompatibilitiesPutEchoSchema(DictSchema):
    create = fields.Nested(CreateEchoSchema, metadata={"description": "The create section as processed"})
    update = fields.Nested(SectionEchoSchema, metadata={"description": "The update section as processed"})
    delete = fields.Nested(SectionEchoSchema, metadata={"description": "The delete section as processed"})


class DeletedSchema(DictSchema):
    deleted_compatibilities = fields.List(fields.String(), metadata={"description": "Ids of the deleted entries"})


class ExtendedCheckSchema(DictSchema):
    note = fields.String(metadata={"description": "\"true\" when the category accepts notes"})
    restrictions = fields.String(metadata={"description": "\"true\" when the category accepts restrictions"})


class NoteSchema(DictSchema):
    note = fields.String(metadata={"description": "The note; \"\" when none is visible to the caller"})


class CompatibilityExceptionSchema(DictSchema):
    item_id = fields.String(metadata={"description": "The item (answer of the report)"})
    has_exception = fields.Boolean(metadata={"description": "true only while the item has no compatibility"})
    comment = fields.String(metadata={"description": "The reported comment (answer of the report)"})


class FamilyCountResultSchema(DictSchema):
    count = fields.Integer(metadata={"description": "Number of child products the family selects"})
