"""The compatibility endpoints' schemas (2, 8 to 10, 12 to 20): the request bodies of the writes
(2, 8, 9, 10, 18, 19) first, then the answers, which echo the bodies' elements."""
import marshmallow as ma
from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from schemas.common import Answer, DictSchema, PagingSchema, StrictSchema, limit_argument, offset_argument
from schemas.fields import Choice, StrictBoolean
from schemas.vocabulary import (
    COMPATIBILITY_SOURCES,
    CREATION_SOURCES,
    DOMAIN_ID_PATTERN,
    ITEM_ID_PATTERN,
    NOTE_STATUSES,
    PRODUCT_ID_PATTERN,
)

NOTE_MAX = 500
COMMENT_MAX = 255


def product_id(**kwargs):
    return fields.String(validate=validate.Regexp(PRODUCT_ID_PATTERN, error="must be a product id such as MLA15947826"),
                         **kwargs)


def domain_id(**kwargs):
    return fields.String(validate=validate.Regexp(DOMAIN_ID_PATTERN, error="must be a domain id such as "
                                                  "MLA-CARS_AND_VANS"), **kwargs)


def creation_source(description="Flow that creates the compatibility"):
    return Choice(CREATION_SOURCES, metadata={
        "description": f"{description}: " + ", ".join(CREATION_SOURCES) + " (any letter case, stored upper case)"})


class RestrictionValueInSchema(StrictSchema):
    value_id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    value_name = fields.String(metadata={"description": "Ignored: the catalog's name is stored"})
    value_code = fields.Integer(strict=True,
                                metadata={"description": "Ignored (accepted so that an echo can be resent)"})


class RestrictionGroupInSchema(StrictSchema):
    values = fields.List(fields.Nested(RestrictionValueInSchema), required=True,
                         validate=validate.Length(min=1))


class RestrictionInSchema(StrictSchema):
    attribute_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                                 metadata={"description": "From endpoint 7, e.g. POSITION"})
    attribute_code = fields.Integer(strict=True,
                                    metadata={"description": "Ignored (accepted so that an echo can be resent)"})
    attribute_values = fields.List(fields.Nested(RestrictionGroupInSchema), required=True,
                                   validate=validate.Length(min=1),
                                   metadata={"description": "Alternative groups (at most 4, of at most 4 values)"})


def note_field():
    return fields.String(validate=validate.Length(max=NOTE_MAX), metadata={
        "description": f"Conditions of the compatibility (at most {NOTE_MAX} characters); \"\" removes it"})


def restrictions_field():
    return fields.List(fields.Nested(RestrictionInSchema), metadata={
        "description": "Position restrictions; [] removes them"})


class FamilyValueSchema(StrictSchema):
    id = fields.String()
    name = fields.String()
    OPENAPI = {"anyOf": [{"title": "By id", "required": ["id"], "properties": {"id": {"minLength": 1}}},
                         {"title": "By name", "required": ["name"], "properties": {"name": {"minLength": 1}}}]}


class FamilyAttributeSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    value_id = fields.String(validate=validate.Length(min=1, max=100))
    value_name = fields.String(validate=validate.Length(min=1, max=255))
    value_ids = fields.List(fields.String(validate=validate.Length(min=1, max=100)),
                            validate=validate.Length(min=1, max=200))
    values = fields.List(fields.Nested(FamilyValueSchema), validate=validate.Length(min=1, max=200),
                         metadata={"description": "Delete form: any of these {id, name}"})
    OPENAPI = {"oneOf": [{"title": key, "required": [key]}
                         for key in ("value_id", "value_name", "value_ids", "values")]}

    @validates_schema
    def one_value(self, data, **kwargs):
        given = [k for k in ("value_id", "value_name", "value_ids", "values") if k in data]
        if len(given) != 1:
            raise ValidationError("give exactly one of value_id, value_name or value_ids", "value_id")
        for value in data.get("values", ()):
            if not value.get("id") and not value.get("name"):
                raise ValidationError("each value needs an id or a name", "values")


def family_attributes():
    return fields.List(fields.Nested(FamilyAttributeSchema), required=True, validate=validate.Length(min=1, max=20))


class FamilyElementSchema(StrictSchema):
    domain_id = domain_id(required=True)
    creation_source = creation_source()
    attributes = family_attributes()
    note = note_field()
    restrictions = restrictions_field()


class FamilyCreateElementSchema(FamilyElementSchema):
    """A created family; creation_source is required unless the body gives a default."""


class ProductElementSchema(StrictSchema):
    id = product_id(required=True)
    creation_source = creation_source()
    note = note_field()
    restrictions = restrictions_field()


class ProductCreateElementSchema(ProductElementSchema):
    """A created product; creation_source is required unless the body gives a default."""


class ProductsGroupSchema(StrictSchema):
    ids = fields.List(product_id(), required=True, validate=validate.Length(min=1))
    creation_source = creation_source()
    note = note_field()
    restrictions = restrictions_field()


class ItemToCopySchema(StrictSchema):
    item_id = fields.String(required=True, validate=validate.Regexp(ITEM_ID_PATTERN, error="must be an item id"))
    extended_information = StrictBoolean(load_default=False, metadata={
        "description": "Copy notes and restrictions too"})


class CompatibilitiesCreateSchema(StrictSchema):
    """Endpoint 8 (products, groups, families or universal) and 9 (item_to_copy alone)."""
    # The body's rules (vehicles, or universal with none, or item_to_copy alone; each created element's
    # creation_source or a default) are the service's (app/services/compat/writes.py): as a oneOf of
    # variants with properties, openapi-python-client could not generate the operation any more.
    products = fields.List(fields.Nested(ProductCreateElementSchema), metadata={
        "description": "Vehicles (child products) one by one, each with its note and restrictions"})
    products_group = fields.List(fields.Nested(ProductsGroupSchema), metadata={
        "description": "Several vehicles sharing one note and restriction set"})
    products_families = fields.List(fields.Nested(FamilyCreateElementSchema), metadata={
        "description": "Vehicles selected by attribute values (at most 10 families; 200 products per request)"})
    universal = StrictBoolean(metadata={"description": "true sets the universal setting (with no products)"})
    item_to_copy = fields.Nested(ItemToCopySchema, metadata={
        "description": "Copy the compatibilities of another item of the caller (target without compatibilities)"})
    creation_source = creation_source("Default of the elements that carry none")

    @post_load
    def default_creation_source(self, data, **kwargs):
        """Each created element needs a creation_source: its own, else the body's (then dropped, so the
        services see elements only). Missing in both places is the element's required-field error."""
        default = data.pop("creation_source", None)
        missing = {}
        for section in ("products", "products_group", "products_families"):
            for index, element in enumerate(data.get(section) or ()):
                if default is not None:
                    element.setdefault("creation_source", default)
                elif "creation_source" not in element:
                    missing.setdefault(section, {})[index] = {
                        "creation_source": ["Missing data for required field."]}
        if missing:
            raise ValidationError(missing)
        return data


class PutCreateSchema(CompatibilitiesCreateSchema):
    pass


class PutUpdateSchema(StrictSchema):
    products = fields.List(fields.Nested(ProductElementSchema), metadata={
        "description": "Compatibilities to change, by vehicle id: note \"\" or restrictions [] remove them"})
    products_families = fields.List(fields.Nested(FamilyElementSchema), metadata={
        "description": "Change every compatibility of the item whose vehicle the family selects"})


class PutDeleteSchema(StrictSchema):
    products = fields.List(fields.Nested(ProductElementSchema), metadata={
        "description": "Compatibilities to delete, by vehicle id"})
    products_families = fields.List(fields.Nested(FamilyElementSchema), metadata={
        "description": "Delete the item's seller compatibilities whose vehicle the family selects"})
    universal = StrictBoolean(metadata={"description": "true removes the universal setting"})


class CompatibilitiesPutSchema(StrictSchema):
    OPENAPI = {"minProperties": 1}  # some_section
    create = fields.Nested(PutCreateSchema, metadata={"description": "Add (as POST, plus item_to_copy)"})
    update = fields.Nested(PutUpdateSchema, metadata={"description": "Change notes and restrictions"})
    delete = fields.Nested(PutDeleteSchema, metadata={"description": "Remove compatibilities"})

    @validates_schema
    def some_section(self, data, **kwargs):
        if not data:
            raise ValidationError("send at least one of create, update or delete", "create")


class FamilyDeleteSchema(StrictSchema):
    domain_id = domain_id(required=True)
    attributes = family_attributes()


class CompatibilitiesDeleteSchema(StrictSchema):
    """Endpoint 18; without a body (endpoint 17) every seller compatibility is deleted."""
    products_families = fields.List(fields.Nested(FamilyDeleteSchema),
                                    validate=validate.Length(min=1))


class FamilyCountSchema(StrictSchema):
    domain_id = domain_id(required=True)
    attributes = family_attributes()


class ExceptionCreateSchema(StrictSchema):
    comment = fields.String(required=True, validate=validate.Length(
        min=1, max=COMMENT_MAX, error=f"comment must have 1 to {COMMENT_MAX} characters"))


# The answers.


class CodedRestrictionValueSchema(Answer, DictSchema):
    value_id = fields.String(metadata={"description": "Value id from endpoint 7"})
    value_name = fields.String(allow_none=True, metadata={"optional": "in the echo of a request that did not send it",
                                                          "description": "Value name from endpoint 7"})
    value_code = fields.Integer(allow_none=True, metadata={"optional": "when the value has no stored code",
                                                           "description": "Stable code (update and copy echoes)"})


class CodedRestrictionGroupSchema(Answer, DictSchema):
    values = fields.List(fields.Nested(CodedRestrictionValueSchema), metadata={
        "description": "Values of one alternative group"})


class CodedRestrictionSchema(Answer, DictSchema):
    attribute_id = fields.String(metadata={"description": "Restriction attribute, e.g. POSITION"})
    attribute_code = fields.Integer(allow_none=True, metadata={"optional": "when the attribute has no stored code",
                                                               "description": "Stable code (update and copy echoes)"})
    attribute_values = fields.List(fields.Nested(CodedRestrictionGroupSchema),
                                   metadata={"description": "Alternative groups of values"})


class CompatReputationSchema(Answer, DictSchema):
    level = fields.String(metadata={"description": "RED from the configured number of claims on, else GREEN"})
    claims_count = fields.Integer(metadata={"description": "Incompatibility claims on this vehicle"})


class CompatibilityEntrySchema(Answer, DictSchema):
    id = fields.String(metadata={"description": "Compatibility id"})
    domain_id = fields.String(allow_none=True, metadata={"description": "Domain of the vehicle"})
    catalog_product_id = fields.String(allow_none=True, metadata={"description": "The vehicle (child product)"})
    catalog_product_name = fields.String(allow_none=True, metadata={"description": "The vehicle's name"})
    source = fields.String(metadata={"description": "SELLER (made through this API) or CATALOGO",
                                     "enum": list(COMPATIBILITY_SOURCES)})
    note = fields.String(metadata={"optional": "without extended=true",
                                   "description": "Shown to others than the seller once APPROVED or CHECKED"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema), metadata={
        "optional": "when none, or without extended=true", "description": "Absent when none"})
    reputation = fields.Nested(CompatReputationSchema, metadata={"optional": "without claims, or without extended=true",
                                                                 "description": "Absent without claims"})


class CompatibilityDetailSchema(CompatibilityEntrySchema):
    note_status = fields.String(allow_none=True, metadata={"optional": "unless the caller is the item's seller",
        "description": "PENDING, APPROVED or CHECKED; only for the item's seller", "enum": list(NOTE_STATUSES)})
    universal = fields.Boolean(metadata={"optional": "unless the entry is the universal setting",
                                         "description": "Present (true) for the universal setting"})


class UniversalSchema(Answer, DictSchema):
    id = fields.String(metadata={"description": "Id of the universal setting (DELETE it to remove the setting)"})
    domain_ids = fields.List(fields.String(), metadata={"description": "Top domains the item is compatible with"})


class CompatibilityListSchema(Answer, DictSchema):
    products = fields.List(fields.Nested(CompatibilityEntrySchema), metadata={
        "description": "The item's compatibilities with vehicles ([] for a universal item)"})
    catalog_compatibilities_count = fields.Integer(metadata={"description": "Compatibilities of source CATALOGO"})
    universal = fields.Nested(UniversalSchema, metadata={"optional": "unless the item is universal",
                                                         "description": "Only for a universal item"})
    paging = fields.Nested(PagingSchema, metadata={"optional": "unless limit or offset is given",
                                                   "description": "Only when limit or offset is given"})


class CompatibilityListQuerySchema(ma.Schema):
    extended = fields.Boolean(load_default=False, metadata={
        "description": "true adds note, restrictions and reputation to each entry"})
    limit = limit_argument("Page size (50 when only offset is given); without limit and offset every entry is returned")
    offset = offset_argument("Position of the first result (0 when only limit is given)")


class CreatedCountSchema(Answer, DictSchema):
    created_compatibilities_count = fields.Integer(metadata={
        "description": "Compatibilities added (products the item already had are not counted)"})
    item_id = fields.String(metadata={"optional": "unless the request copied another item",
                                      "description": "Copy only: the item copied from"})
    extended_information = fields.Boolean(metadata={"optional": "unless the request copied another item",
                                                    "description": "Copy only"})
    products = fields.List(fields.Nested(lambda: CopiedSchema()), metadata={
        "optional": "unless the request copied another item",
        "description": "Copy only: the compatibilities written, restrictions with their codes"})


class CopiedSchema(Answer, DictSchema):
    id = fields.String(metadata={"description": "Id of the new compatibility"})
    catalog_product_id = fields.String(metadata={"description": "The vehicle"})
    domain_id = fields.String(metadata={"description": "Domain of the vehicle"})
    creation_source = fields.String(metadata={"description": "As in the copied item"})
    note = fields.String(metadata={"optional": "without extended_information, or when the copied entry has none",
                                   "description": "Copied note (extended_information), PENDING again"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema), metadata={
        "optional": "without extended_information, or when the copied entry has none",
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


class DeletedSchema(Answer, DictSchema):
    deleted_compatibilities = fields.List(fields.String(), attribute="ids",
                                          metadata={"description": "Ids of the deleted entries"})


class TrueFalse(fields.String):
    """A boolean answered as the string "true" or "false", as the marketplace does."""

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else ("true" if value else "false")


class ExtendedCheckSchema(Answer, DictSchema):
    note = TrueFalse(metadata={"description": "\"true\" when the category accepts notes"})
    restrictions = TrueFalse(metadata={"description": "\"true\" when the category accepts restrictions"})


class NoteSchema(Answer, DictSchema):
    note = fields.String(metadata={"description": "The note; \"\" when none is visible to the caller"})


class CompatibilityExceptionSchema(Answer, DictSchema):
    item_id = fields.String(metadata={"optional": "in the read (only the report answers it)",
                                      "description": "The item (answer of the report)"})
    has_exception = fields.Boolean(metadata={"description": "true only while the item has no compatibility"})
    comment = fields.String(metadata={"optional": "in the read (only the report answers it)",
                                      "description": "The reported comment (answer of the report)"})


class FamilyCountResultSchema(Answer, DictSchema):
    count = fields.Integer(metadata={"description": "Number of child products the family selects"})
