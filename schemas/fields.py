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


def canonical_uuid(text):
    """The lower-case 8-4-4-4-12 form of a UUID's text, or None when `text` is not one."""
    if type(text) is not str or len(text) != 36 or not all(text[i] == "-" for i in (8, 13, 18, 23)):
        return None
    digits = text.replace("-", "")
    return text.lower() if len(digits) == 32 and _HEX.issuperset(digits) else None


_HEX = frozenset("0123456789abcdefABCDEF")


class UuidText(fields.String):
    """A UUID as the API writes it (a compatibility's id): 36 characters, 8-4-4-4-12 hexadecimal digits
    in either case, loaded in lower case (the database keeps the 16 bytes, app/models/uuid_keys.py)."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"format": "uuid", **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = canonical_uuid(super()._deserialize(value, attr, data, **kwargs))
        if text is None:
            raise self.make_error("uuid", input=value)
        return text

    default_error_messages = {"uuid": "must be a UUID of 36 characters (8-4-4-4-12 hexadecimal digits, such as "
                                      "bcbd413f-cd65-0e0f-88c9-5eb4aebb5372), not {input!r}"}
