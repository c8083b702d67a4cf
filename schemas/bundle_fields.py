"""Building blocks of the bundle schemas: allowed values, text fields, UTC dates, flat records."""
import datetime
import re

import marshmallow as ma
from marshmallow import fields, validate

STATUSES = ("ENABLED", "DISABLED")
SHEET_SECTIONS = ("SPECIFICATIONS", "GRIDS")
ITEM_STATUSES = ("active", "paused", "closed", "under_review", "inactive", "not_yet_active",
                 "payment_required")
SNAPSHOT_COMPATIBILITIES = ("CONFIRMED", "INCOMPATIBLE", "NO_USER_SELECTION")
# Text one database stores and the other refuses (NUL) or neither driver encodes (lone surrogates);
# the importer reports it with its path (app/json_input.py), the fast checks only decline it.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text):
    """False for a str holding UNSTORABLE characters; most text is ASCII, where only NUL can be."""
    return "\x00" not in text if text.isascii() else not UNSTORABLE.search(text)


def one_of(choices):
    return validate.OneOf(choices, error="must be one of " + ", ".join(choices) + ", not {input!r}")


class UtcDateTime(fields.DateTime):
    """ISO 8601 in, naive UTC datetime out (the database stores UTC without a zone)."""

    def _deserialize(self, value, attr, data, **kwargs):
        parsed = super()._deserialize(value, attr, data, **kwargs)
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(datetime.UTC).replace(tzinfo=None)
        return parsed


class Id(fields.Integer):
    """A numeric id (of a user, order, claim, store): a positive integer that fits the BIGINT
    column of both databases, so that a bundle SQLite took is one PostgreSQL takes too."""

    def __init__(self, **kwargs):
        range_ = validate.Range(min=1, max=2 ** 63 - 1, error="must be a positive 64-bit integer "
                                                              "(1 to {max}), not {input}")
        super().__init__(strict=True, validate=range_, **kwargs)


def text(required=True, max_length=None, **kwargs):
    checks = [validate.Length(min=1, max=max_length)]
    if not required:
        kwargs.setdefault("allow_none", True)
    return fields.String(required=required, validate=checks, **kwargs)


def reject_repeats(rows, key, field_name, what):
    """A ValidationError naming every repeated key inside one record's list."""
    seen, errors = set(), {}
    for index, row in enumerate(rows or ()):
        value = row.get(key) if isinstance(row, dict) else None
        if value is None:
            continue
        if value in seen:
            errors[index] = {key: [f"repeated {what} {value}"]}
        seen.add(value)
    if errors:
        raise ma.ValidationError({field_name: errors})


class FlatRecords(fields.Field):
    """A list of flat records of optional-or-required strings, checked in plain Python.

    Nested schemas cost too much per record for the product attributes of a large catalog.
    Messages have marshmallow's shape ({index: {field: [...]}}).
    """

    def __init__(self, spec, unique=None, what="value", **kwargs):
        super().__init__(**kwargs)
        # spec: {name: (required, max_length)}; `unique` names the field no two records share.
        self.spec, self.unique, self.what = spec, unique, what

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ma.ValidationError("Not a valid list.")
        errors, out, seen = {}, [], set()
        for index, record in enumerate(value):
            if not isinstance(record, dict):
                errors[index] = {"_schema": ["Invalid input type."]}
                continue
            problems = {key: ["Unknown field."] for key in record if key not in self.spec}
            for name, (required, max_length) in self.spec.items():
                text = record.get(name)
                if text is None:
                    if required:
                        problems[name] = ["Missing data for required field." if name not in record
                                          else "Field may not be null."]
                elif not isinstance(text, str):
                    problems[name] = ["Not a valid string."]
                elif not 0 < len(text) <= max_length:
                    problems[name] = [f"Length must be between 1 and {max_length}."]
            key = record.get(self.unique) if self.unique else None
            if key is not None and not problems:
                if key in seen:
                    problems[self.unique] = [f"repeated {self.what} {key}"]
                seen.add(key)
            if problems:
                errors[index] = problems
            else:
                out.append(record)
        if errors:
            raise ma.ValidationError(errors)
        return out


class Record(ma.Schema):
    """A bundle record: unknown fields are refused. `UNIQUE` names its list fields whose elements
    may not repeat a key: {field: (key, what a repeat is called in the problem)}."""
    UNIQUE = {}

    class Meta:
        unknown = ma.RAISE

    @ma.validates_schema
    def _unique_keys(self, data, **kwargs):
        for field_name, (key, what) in self.UNIQUE.items():
            reject_repeats(data.get(field_name), key, field_name, what)
