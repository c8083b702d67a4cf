"""Buyer fitment (extensions.md B): the search's vehicle parameters, the compatibility each result
gains, and the check of one item against one vehicle."""
import re

import marshmallow as ma
from marshmallow import fields, validate

from schemas.common import Answer, DictSchema, StrictSchema
from schemas.compat import CodedRestrictionSchema
from schemas.search import SearchQueryArgsSchema, SearchResponseSchema, SearchResultSchema

MAX_KNOWN_ATTRIBUTES = 10
ATTRIBUTE_ID = re.compile(r"^[A-Za-z0-9_]{1,100}$")
VALUE_ID = re.compile(r"^[^\x00-\x1f;:,]{1,100}$")
PRODUCT_ID = r"^[A-Za-z0-9_-]{1,40}$"
_PART = r"[A-Za-z0-9_]{1,100}:[^\x00-\x1f;:,]{1,100}"
COMPATIBILITY_FILTER_PATTERN = rf"^{_PART}(;{_PART}){{0,{MAX_KNOWN_ATTRIBUTES - 1}}}$"
STATUSES = ("COMPATIBLE", "UNDETERMINED")
CHECK_STATUSES = ("COMPATIBLE", "NOT_COMPATIBLE", "UNDETERMINED")


class CompatibilityFilter(fields.String):
    """`ATTRIBUTE:VALUE_ID;ATTRIBUTE:VALUE_ID` (eBay's compatibility_filter, with ids) as a list of
    (attribute id, value id); every error names the part at fault."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        parts = text.split(";")
        if len(parts) > MAX_KNOWN_ATTRIBUTES:
            raise ma.ValidationError(f"compatibility_filter names at most {MAX_KNOWN_ATTRIBUTES} attributes")
        known, seen = [], set()
        for n, part in enumerate(parts, 1):
            attribute_id, colon, value_id = part.partition(":")
            if not colon or not ATTRIBUTE_ID.match(attribute_id) or not VALUE_ID.match(value_id):
                raise ma.ValidationError(f"part {n} {part[:40]!r} is not ATTRIBUTE_ID:VALUE_ID "
                                         "(e.g. BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010)")
            if attribute_id in seen:
                raise ma.ValidationError(f"part {n} {part[:40]!r} repeats attribute {attribute_id}")
            seen.add(attribute_id)
            known.append((attribute_id, value_id))
        return known


_Q = SearchQueryArgsSchema._declared_fields["q"]


class FitmentSearchQueryArgsSchema(SearchQueryArgsSchema):
    """The site search's arguments plus a vehicle (B1) or a partly known one (B2); with either,
    `q` may be left out to list every fitting item."""
    q = fields.String(
        validate=_Q.validators,
        metadata={**_Q.metadata,
                  "description": "Words that every result's title holds (accents and case ignored; each word "
                                 "also matches as a prefix). Required unless compatible_with or "
                                 "compatibility_filter is given"})
    compatible_with = fields.String(
        validate=validate.Regexp(PRODUCT_ID, error="compatible_with must be a product id"),
        metadata={"description": "Only items that fit this vehicle (a child product id): by a compatibility "
                                 "with it or a universal setting for its domain", "example": "MLA15900013"})
    compatibility_filter = CompatibilityFilter(
        validate=validate.Length(max=1000, error="compatibility_filter must be at most 1000 characters"),
        metadata={"description": "Only items that fit at least one child product carrying every "
                                 "ATTRIBUTE_ID:VALUE_ID, parts separated by `;` (a partly known vehicle; "
                                 "each attribute once)", "pattern": COMPATIBILITY_FILTER_PATTERN,
                  "example": "BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010"})

    @ma.validates_schema
    def _one_way_to_search(self, data, **kwargs):
        if "compatible_with" in data and "compatibility_filter" in data:
            raise ma.ValidationError("give compatible_with or compatibility_filter, not both",
                                     field_name="compatibility_filter")
        if "q" not in data and "compatible_with" not in data and "compatibility_filter" not in data:
            raise ma.ValidationError("Missing data for required field.", field_name="q")


class ResultCompatibilitySchema(Answer, DictSchema):
    status = fields.String(metadata={"description": "COMPATIBLE: fits every vehicle meant; UNDETERMINED: "
                                                    "fits only some (more attributes are needed to tell)",
                                     "enum": list(STATUSES)})
    note = fields.String(metadata={"optional": "when none is approved, or several vehicles are meant",
                                   "description": "The moderated note of the compatibility (one vehicle "
                                                  "meant); absent when none or not yet approved"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema),
                               metadata={"optional": "when none, or several vehicles are meant",
                                         "description": "Position restrictions (one vehicle meant); absent when none"})


class FittingResultSchema(SearchResultSchema):
    compatibility = fields.Nested(ResultCompatibilitySchema,
                                  metadata={"optional": "unless compatible_with or compatibility_filter is given",
                                            "description": "How the item fits the vehicle searched"})


class FitmentSearchResponseSchema(SearchResponseSchema):
    query = fields.String(allow_none=True, metadata={"description": "The q argument as received (null when absent)"})
    results = fields.List(fields.Nested(FittingResultSchema), attribute="items",
                          metadata={"description": "This page of active items (whose titles hold every word, "
                                                   "and that fit the vehicle when one is given)"})


class KnownValueSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(ATTRIBUTE_ID.pattern, error="not an attribute id"),
                       metadata={"example": "BRAND"})
    value_id = fields.String(required=True, validate=validate.Regexp(VALUE_ID.pattern, error="not a value id"),
                             metadata={"example": "60249"})


class CheckCompatibilitySchema(StrictSchema):
    product_id = fields.String(validate=validate.Regexp(PRODUCT_ID, error="product_id must be a product id"),
                               metadata={"description": "The buyer's vehicle (a child product)"})
    attributes = fields.List(
        fields.Nested(KnownValueSchema),
        validate=validate.Length(min=1, max=MAX_KNOWN_ATTRIBUTES,
                                 error=f"attributes holds 1 to {MAX_KNOWN_ATTRIBUTES} attributes"),
        metadata={"description": "A partly known vehicle, instead of product_id"})
    OPENAPI = {"oneOf": [{"title": "A vehicle", "required": ["product_id"]},
                         {"title": "A partly known vehicle", "required": ["attributes"]}]}

    @ma.validates_schema
    def _product_or_attributes(self, data, **kwargs):
        if ("product_id" in data) == ("attributes" in data):
            raise ma.ValidationError("give product_id or attributes, exactly one of them", field_name="product_id")
        ids = [a["id"] for a in data.get("attributes") or ()]
        for n, attribute_id in enumerate(ids):
            if attribute_id in ids[:n]:
                raise ma.ValidationError(f"attribute {attribute_id} is repeated", field_name=f"attributes.{n}.id")


class CompatibilityCheckSchema(Answer, DictSchema):
    compatibility_status = fields.String(metadata={"enum": list(CHECK_STATUSES),
                                                   "description": "COMPATIBLE, NOT_COMPATIBLE, or UNDETERMINED "
                                                                  "when it fits only some of the vehicles meant"})
    product_ids = fields.List(fields.String(), metadata={"optional": "when NOT_COMPATIBLE",
        "description": "The vehicles meant that the item fits (at most 50); absent when NOT_COMPATIBLE"})
    note = fields.String(metadata={"optional": "unless exactly one vehicle is meant and it has a moderated note",
                                   "description": "Moderated note, when exactly one vehicle is meant"})
    restrictions = fields.List(fields.Nested(CodedRestrictionSchema),
                               metadata={"optional": "unless exactly one vehicle is meant and it has restrictions",
                                         "description": "Restrictions, when exactly one vehicle is meant"})

    @ma.post_dump
    def _drop_absent(self, data, **kwargs):
        return {key: value for key, value in data.items() if value not in (None, [])}
