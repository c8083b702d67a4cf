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


def uuid_bytes(text):
    """The 16 bytes of a UUID's text (8-4-4-4-12 hexadecimal digits, either case), or None when
    `text` is not one."""
    if type(text) is not str or len(text) != 36 or not text[8] == text[13] == text[18] == text[23] == "-":
        return None
    try:
        key = bytes.fromhex(text.replace("-", ""))
    except ValueError:
        return None
    return key if len(key) == 16 else None  # fromhex skips whitespace


def canonical_uuid(text):
    """The lower-case text of a UUID's text, or None when `text` is not one."""
    return text.lower() if uuid_bytes(text) is not None else None


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
