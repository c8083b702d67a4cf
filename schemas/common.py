"""The error object, paging arguments and the paging envelope that every area shares."""
import marshmallow as ma
from marshmallow import fields, validate

PAGE_LIMIT_DEFAULT = 50
PAGE_LIMIT_MAX = 200
PAGE_OFFSET_MAX = 10000


class StrictSchema(ma.Schema):
    """Request bodies reject fields they do not know, so a typo is a 400, not silently ignored."""

    class Meta:
        unknown = ma.RAISE


class CauseSchema(ma.Schema):
    code = fields.String(required=True, metadata={"description": "Machine-readable problem code"})
    message = fields.String(required=True, metadata={"description": "What to fix"})
    field = fields.String(metadata={"description": "Dotted path of the field in the request"})


class ErrorSchema(ma.Schema):
    """The uniform error object of every failure; an error may add keys of its own (for example
    `errors` of chart_validation_error), so the document allows more properties."""

    class Meta:
        unknown = ma.INCLUDE

    message = fields.String(required=True, metadata={"description": "Human-readable message"})
    error = fields.String(required=True, metadata={"description": "Machine-readable error code"})
    status = fields.Integer(required=True, metadata={"description": "HTTP status"})
    cause = fields.List(fields.Nested(CauseSchema), required=True,
                        metadata={"description": "One entry per problem"})


class PagingQuerySchema(ma.Schema):
    limit = fields.Integer(
        load_default=PAGE_LIMIT_DEFAULT,
        validate=validate.Range(min=1, max=PAGE_LIMIT_MAX,
                                error=f"limit must be between 1 and {PAGE_LIMIT_MAX}"),
        metadata={"description": f"Page size (default {PAGE_LIMIT_DEFAULT}, at most {PAGE_LIMIT_MAX})"},
    )
    offset = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=PAGE_OFFSET_MAX,
                                error=f"offset must be between 0 and {PAGE_OFFSET_MAX}"),
        metadata={"description": f"Position of the first result (default 0, at most {PAGE_OFFSET_MAX})"},
    )


class PagingSchema(ma.Schema):
    total = fields.Integer(required=True, metadata={"description": "Number of results in all pages"})
    offset = fields.Integer(required=True, metadata={"description": "Position of the first result"})
    limit = fields.Integer(required=True, metadata={"description": "Page size"})
