"""The compatibility snapshot of an order (endpoint 21)."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import Answer
from schemas.items import UtcDateTime

COMPATIBILITY_STATUSES = ("CONFIRMED", "INCOMPATIBLE", "NO_USER_SELECTION")


class SelectionValueSchema(Answer, ma.Schema):
    attribute_id = fields.String(metadata={"example": "BRAND"})
    value_id = fields.String(metadata={"example": "60249"})


class LabelValueSchema(Answer, ma.Schema):
    label = fields.String(metadata={"example": "Marca"})
    value_name = fields.String(metadata={"example": "Volkswagen"})
    values = fields.List(fields.Nested(SelectionValueSchema))


class UserSelectionSchema(Answer, ma.Schema):
    label_values = fields.List(fields.Nested(LabelValueSchema))


class CompatibilityStatusSchema(Answer, ma.Schema):
    compatibility = fields.String(metadata={"description": " or ".join(COMPATIBILITY_STATUSES)})
    compatibility_id = fields.String(metadata={
        "optional": "unless CONFIRMED and the item still has that compatibility",
        "description": "When CONFIRMED and the item still has that compatibility"})
    note = fields.String(metadata={"optional": "unless NO_USER_SELECTION", "description": "When NO_USER_SELECTION"})
    restrictions = fields.List(fields.Raw(), metadata={"optional": "unless NO_USER_SELECTION",
                                                       "description": "When NO_USER_SELECTION"})


class OrderSnapshotSchema(Answer, ma.Schema):
    item_id = fields.String(metadata={"description": "The ordered item", "example": "MLA100"})
    product_id = fields.String(metadata={"optional": "when the buyer selected no vehicle",
                                         "description": "Vehicle selected before purchase; absent when none"})
    seller_id = fields.String(metadata={"description": "The item's seller, as a string", "example": "1001"})
    user_selection = fields.Nested(UserSelectionSchema, metadata={
        "description": "The vehicle attributes the buyer chose (label_values)"})
    compatibility_status = fields.Nested(CompatibilityStatusSchema, metadata={
        "description": "What the buyer was told: CONFIRMED, INCOMPATIBLE or NO_USER_SELECTION"})
    compatibility_deleted = fields.Boolean(metadata={
        "description": "true when the seller deleted the compatibility of the selected vehicle after the sale"})
    date_created = UtcDateTime(metadata={"description": "ISO 8601 UTC", "example": "2026-02-01T10:00:00Z"})
    date_updated = UtcDateTime(metadata={"optional": "when the snapshot never changed",
                                         "description": "Absent when the snapshot never changed"})
