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


class StrictBoolean(fields.Boolean):
    """A JSON body's true or false, nothing else: marshmallow's Boolean also reads 1, 0 and words such
    as "yes", which the document (type boolean) does not allow."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value
