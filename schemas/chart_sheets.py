"""Technical specification sheets (endpoints 23 and 24) and the attribute values requests carry."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import Answer, DictSchema, DirectAccess, StrictSchema
from schemas.fields import Choice
from schemas.vocabulary import NO_NUL_PATTERN


class IdField(fields.Field):
    """An id sent as a string or an integer; always read as a string."""

    def __init__(self, **kwargs):
        kwargs["metadata"] = {"anyOf": [{"type": "string", "pattern": NO_NUL_PATTERN}, {"type": "integer"}],
                              **kwargs.get("metadata", {})}
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise ma.ValidationError("Must be a string or a number.")
        return str(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else str(value)


class ValueInputSchema(StrictSchema):
    id = IdField(allow_none=True, metadata={"description": "Value id", "example": "339666"})
    name = fields.String(allow_none=True, metadata={"description": "Value name", "example": "Hombre"})
    struct = fields.Raw(allow_none=True, metadata={"description": "Structured value ({number, unit})"})


class AttributeInputSchema(StrictSchema):
    id = fields.String(required=True, metadata={"description": "Attribute id", "example": "GENDER"})
    name = fields.String(allow_none=True)
    value_id = IdField(allow_none=True)
    value_name = fields.String(allow_none=True)
    value_struct = fields.Raw(allow_none=True)
    values = fields.List(fields.Nested(ValueInputSchema), load_default=list)
    attribute_group_id = fields.String(allow_none=True)
    attribute_group_name = fields.String(allow_none=True)


class ChartSheetQuerySchema(ma.Schema):
    section = Choice(["grids"], upper=False, required=True,
                     metadata={"description": "Always `grids` (any letter case): the sheet of a size chart"})


class ChartSheetRequestSchema(StrictSchema):
    attributes = fields.List(fields.Nested(AttributeInputSchema), required=True, metadata={
        "description": "Every attribute tagged grid_template_required in the domain sheet, with its value"})


# The sheet's parts below dump a sheet as the catalog bundle stored it (its `input` is a free-form
# object, BundleTechnicalSpecSchema), and a chart value as it was sent: none of their keys is always
# there, so they are not marked Answer (tests/http/test_documented.py allows them).


class UnitSchema(DictSchema):
    id = fields.String()
    name = fields.String()


class ValueSchema(DirectAccess, DictSchema):
    id = IdField(allow_none=True)
    name = fields.String(allow_none=True)
    struct = fields.Raw(allow_none=True)


class SheetAttributeSchema(DictSchema):
    id = fields.String()
    name = fields.String()
    value_type = fields.String(metadata={"description": "string, list, number_unit, grid_id or grid_row_id"})
    value_max_length = fields.Integer()
    tags = fields.List(fields.String(), metadata={"example": ["grid_template_required"]})
    values = fields.List(fields.Nested(ValueSchema))
    hierarchy = fields.String(metadata={"description": "PARENT_PK, CHILD_PK, FAMILY, ITEM or CHILD_DEPENDENT"})
    relevance = fields.Raw(metadata={"type": "number"})
    default_unit_id = fields.String(allow_none=True, metadata={"description": "null when the attribute has no unit"})
    units = fields.List(fields.Nested(UnitSchema))


class UiConfigSchema(DictSchema):
    hint = fields.String()
    allow_custom_value = fields.Boolean()
    allow_filtering = fields.Boolean()
    max_allowed = fields.Integer(metadata={"description": "Most rows of a chart (GRID component)"})


class ComponentSchema(DictSchema):
    component = fields.String(metadata={"description": "COMBO, GRID_ROW_INPUT, GRID_INPUT, GRID, TEXT_OUTPUT, "
                                                       "TEXT_INPUT or NUMBER_UNIT_INPUT"})
    label = fields.String()
    ui_config = fields.Nested(UiConfigSchema)
    attributes = fields.List(fields.Nested(SheetAttributeSchema))
    unified_units = fields.List(fields.Raw())
    default_unified_unit_id = fields.String(allow_none=True, metadata={
        "description": "null when the component has no unified unit"})
    components = fields.List(fields.Nested(lambda: ComponentSchema()), metadata={"description": "GRID only"})


class GroupSchema(DictSchema):
    id = fields.String()
    label = fields.String()
    relevance = fields.Raw(metadata={"type": "number"})
    section = fields.String(metadata={"description": "SPECIFICATIONS or GRIDS"})
    ui_config = fields.Nested(UiConfigSchema)
    components = fields.List(fields.Nested(ComponentSchema))


class SheetInputSchema(DictSchema):
    groups = fields.List(fields.Nested(GroupSchema))


class TechnicalSheetSchema(Answer, DictSchema):
    input = fields.Nested(SheetInputSchema, metadata={"description": "The sheet's groups"})
    output = fields.Dict(metadata={"description": "Empty in the shapes the spec gives"})
