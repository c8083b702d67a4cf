"""Request bodies of the compatibility writes (endpoints 2, 8, 9, 10, 18, 19)."""
from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from schemas.common import StrictSchema
from schemas.fields import Choice
from schemas.vocabulary import CREATION_SOURCES, DOMAIN_ID_PATTERN, ITEM_ID_PATTERN, PRODUCT_ID_PATTERN

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
    value_code = fields.Integer(metadata={"description": "Ignored (accepted so that an echo can be resent)"})


class RestrictionGroupInSchema(StrictSchema):
    values = fields.List(fields.Nested(RestrictionValueInSchema), required=True,
                         validate=validate.Length(min=1))


class RestrictionInSchema(StrictSchema):
    attribute_id = fields.String(required=True, validate=validate.Length(min=1, max=100),
                                 metadata={"description": "From endpoint 7, e.g. POSITION"})
    attribute_code = fields.Integer(metadata={"description": "Ignored (accepted so that an echo can be resent)"})
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


class FamilyAttributeSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    value_id = fields.String(validate=validate.Length(min=1, max=100))
    value_name = fields.String(validate=validate.Length(min=1, max=255))
    value_ids = fields.List(fields.String(validate=validate.Length(min=1, max=100)),
                            validate=validate.Length(min=1, max=200))
    values = fields.List(fields.Nested(FamilyValueSchema), validate=validate.Length(min=1, max=200),
                         metadata={"description": "Delete form: any of these {id, name}"})

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
    extended_information = fields.Boolean(load_default=False, metadata={
        "description": "Copy notes and restrictions too"})


class CompatibilitiesCreateSchema(StrictSchema):
    """Endpoint 8 (products, groups, families or universal) and 9 (item_to_copy alone)."""
    products = fields.List(fields.Nested(ProductCreateElementSchema), metadata={
        "description": "Vehicles (child products) one by one, each with its note and restrictions"})
    products_group = fields.List(fields.Nested(ProductsGroupSchema), metadata={
        "description": "Several vehicles sharing one note and restriction set"})
    products_families = fields.List(fields.Nested(FamilyCreateElementSchema), metadata={
        "description": "Vehicles selected by attribute values (at most 10 families; 200 products per request)"})
    universal = fields.Boolean(metadata={"description": "true sets the universal setting (with no products)"})
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
    universal = fields.Boolean(metadata={"description": "true removes the universal setting"})


class CompatibilitiesPutSchema(StrictSchema):
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
