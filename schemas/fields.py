"""Fields shared by several request schemas."""
from marshmallow import fields, validate


class Choice(fields.String):
    """One of `choices`, accepted in any letter case and loaded in the case the choices are written
    in; the OpenAPI enum lists each choice once (not every spelling)."""

    def __init__(self, choices, *, upper=True, **kwargs):
        self.upper = upper
        super().__init__(validate=validate.OneOf(choices), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data, **kwargs)
        return value.upper() if self.upper else value.lower()
