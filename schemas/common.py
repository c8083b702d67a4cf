"""What every area shares: the base of schemas that dump dicts, the mark of a response schema, the
error object, the paging arguments and the page envelope.

**`required` in the document's responses.** A schema the server only dumps (a response body) is
marked `Answer`: the OpenAPI document then lists each of its fields as `required`, for the server
always answers it, except a field whose metadata gives `"optional"`, the case in which it is absent
(`metadata={"optional": "only for a universal item"}`). A field that may be null says so with
`allow_none=True` (the document's `nullable: true`). The mark is documentation only: it is read by
the document's converter (app/http/smorest.py, `AnswerConverter`), never by marshmallow, so a
schema that is also loaded accepts exactly what it accepted before. marshmallow's own
`required=True` keeps its one meaning, "refused when missing from a request": it is not put on
response fields, where nothing would check it. tests/documented.py validates every JSON answer of
the test suite against the document, so a field marked required that an answer lacks fails a test.
"""
import marshmallow as ma
from marshmallow import fields, validate

from schemas.vocabulary import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_OFFSET_MAX


class DictSchema(ma.Schema):
    """Dumps dicts (stored JSON, request echoes) as well as objects: a key the dict lacks is
    omitted, never read as an attribute (marshmallow's fallback would dump `dict.values` or
    `dict.update` for a missing `values` or `update` key)."""

    def get_attribute(self, obj, attr, default):
        if isinstance(obj, dict):
            return obj.get(attr, default)
        return super().get_attribute(obj, attr, default)


class Answer:
    """The mark of a response schema (see the module docstring): every field is documented as
    required unless its metadata says when it is `optional`."""


class DirectAccess:
    """A schema mixin that reads each field's value straight from the object (`dict.get` for a
    dict, `getattr` otherwise) and hands it to the field's own `_serialize`: the same answer as
    marshmallow's dump, without its accessor chain per field (`serialize`, `get_value`,
    `get_attribute`, `utils.get_value`), which was much of the time of dumping an item, and a
    visible share of an item read. For flat schemas only: a dotted `attribute`, or a field that reads
    no attribute (Method, Function, Constant), keeps marshmallow's own path."""

    def _serialize(self, obj, *, many=False):
        if many and obj is not None:
            return [self._serialize(each) for each in obj]
        plan = self.__dict__.get("_direct_plan")
        if plan is None:
            plan = self._direct_plan = _direct_plan(self.dump_fields)
        if not plan:
            return super()._serialize(obj, many=many)
        get = obj.get if isinstance(obj, dict) else (lambda attribute, default: getattr(obj, attribute, default))
        answer = {}
        for name, key, attribute, field in plan:
            value = get(attribute, ma.missing)
            if value is ma.missing:
                default = field.dump_default
                value = default() if callable(default) else default
                if value is ma.missing:
                    continue
            answer[key] = field._serialize(value, name, obj)
        return answer


def _direct_plan(dump_fields):
    """(name, key, attribute, field) per field, or () when a field needs marshmallow's own path."""
    plan = []
    for name, field in dump_fields.items():
        attribute = field.attribute or name
        if not field._CHECK_ATTRIBUTE or "." in attribute:
            return ()
        plan.append((name, field.data_key if field.data_key is not None else name, attribute, field))
    return tuple(plan)


class Inline(fields.Nested):
    """A nested object whose fields are read from the object being dumped itself: `paging` from
    a page, `seller: {id}` from an item row."""

    def get_value(self, obj, attr, accessor=None, default=ma.missing):
        return obj


class StrictSchema(DictSchema):
    """Request bodies reject fields they do not know, so a typo is a 400, not silently ignored.
    Their fields also describe the PUT echo (schemas.compat), which dumps dicts."""

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


def limit_argument(description=f"Page size (default {PAGE_LIMIT_DEFAULT}, at most {PAGE_LIMIT_MAX})", **kwargs):
    """The `limit` query argument, 400 naming its range outside it."""
    return fields.Integer(validate=validate.Range(min=1, max=PAGE_LIMIT_MAX,
                                                  error=f"limit must be between 1 and {PAGE_LIMIT_MAX}"),
                          metadata={"description": description}, **kwargs)


def offset_argument(description=f"Position of the first result (default 0, at most {PAGE_OFFSET_MAX})", **kwargs):
    """The `offset` query argument, 400 naming its range outside it."""
    return fields.Integer(validate=validate.Range(min=0, max=PAGE_OFFSET_MAX,
                                                  error=f"offset must be between 0 and {PAGE_OFFSET_MAX}"),
                          metadata={"description": description}, **kwargs)


class PagingQuerySchema(ma.Schema):
    limit = limit_argument(load_default=PAGE_LIMIT_DEFAULT)
    offset = offset_argument(load_default=0)


class PagingSchema(Answer, ma.Schema):
    total = fields.Integer(required=True, metadata={"description": "Number of results in all pages"})
    offset = fields.Integer(required=True, metadata={"description": "Position of the first result"})
    limit = fields.Integer(required=True, metadata={"description": "Page size"})


PAGING_DESCRIPTION = "This page's position: total results, offset and limit"


def page_envelope(name, items_key, item_field, items_description, **others):
    """The named envelope of one paginated resource, dumped from a page (the services' `Page`, or
    a subclass carrying the resource's other fields): its items under `items_key`, and `paging`
    ({total, offset, limit}) read from the page itself.

    `others` are the envelope's other fields in wire order; `items_key` or `paging` given there
    as None take that place, else they come last (items, then paging).
    """
    declared = {**others}
    declared.setdefault(items_key, None)
    declared.setdefault("paging", None)
    declared[items_key] = fields.List(item_field, attribute="items", metadata={"description": items_description})
    declared["paging"] = Inline(PagingSchema, metadata={"description": PAGING_DESCRIPTION})
    return type(name, (Answer, DictSchema), {"__doc__": f"A page of {items_key}.", **declared})
