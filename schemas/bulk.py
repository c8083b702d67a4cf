"""Bulk compatibility jobs (extensions.md, J1 to J5): a row of the upload, the job, a row's result,
their pages and query arguments."""
import re

from marshmallow import ValidationError, fields, post_dump, validate, validates_schema

from schemas.common import Answer, DictSchema, ErrorSchema, PagingQuerySchema, StrictSchema, page_envelope
from schemas.compat import (
    NOTE_MAX,
    FamilyElementSchema,
    ProductElementSchema,
    creation_source,
    note_field,
    restrictions_field,
)
from schemas.history import ChangeDateTime
from schemas.vocabulary import CREATION_SOURCES, ITEM_ID_PATTERN, PRODUCT_ID_PATTERN

ADD, REPLACE, DELETE = "ADD", "REPLACE", "DELETE"
ACTIONS = (ADD, REPLACE, DELETE)
JOB_STATUSES = ("QUEUED", "RUNNING", "DONE", "CANCELLED", "FAILED")
ROW_STATUSES = ("PENDING", "OK", "ERROR", "CANCELLED")
# What each form of J1's body is sent as.
CSV_TYPE, NDJSON_TYPES = "text/csv", ("application/x-ndjson", "application/jsonl", "application/x-jsonlines")


class BulkRowSchema(StrictSchema):
    """One row: what to do to one item's compatibilities. Rows of one item apply together, in order."""
    item_id = fields.String(required=True, validate=validate.Regexp(ITEM_ID_PATTERN, error="must be an item id"))
    action = fields.String(required=True, validate=validate.OneOf(ACTIONS), metadata={
        "description": "ADD (endpoint 8 without its 200-product limit), REPLACE (the item's compatibilities "
                       "become exactly the row's) or DELETE (the listed products or families)"})
    products = fields.List(fields.Nested(ProductElementSchema), metadata={"description": "Vehicles by id"})
    products_families = fields.List(fields.Nested(FamilyElementSchema), metadata={
        "description": "Vehicles selected by attribute values, as in endpoint 8 (each up to COMPAT_MAX_PER_ITEM)"})
    universal = fields.Boolean(metadata={"description": "true: the universal setting (rule A.3)"})
    note = note_field()
    restrictions = restrictions_field()
    creation_source = creation_source("Default of the elements that carry none (DEFAULT when neither has one)")

    @validates_schema
    def something_to_delete(self, data, **kwargs):
        if data.get("action") == DELETE and not (data.get("products") or data.get("products_families")
                                                 or data.get("universal")):
            raise ValidationError("a DELETE row names products, products_families or universal: true", "action")


_ITEM = re.compile(ITEM_ID_PATTERN)
# Product ids joined by newlines, checked at once (an id is the pattern of PRODUCT_ID_PATTERN).
_PRODUCT_IDS = re.compile(r"(?:{0}\n)*{0}".format(PRODUCT_ID_PATTERN.strip("^$")))
_ROW_KEYS = frozenset(("item_id", "action", "products", "note", "creation_source"))
_PRODUCT_KEYS = frozenset(("id", "note", "creation_source"))


def _plain_text(value, max_length):
    return type(value) is str and len(value) <= max_length


def _plain_products(products):
    if type(products) is not list:
        return False
    for element in products:
        if type(element) is not dict or not element.keys() <= _PRODUCT_KEYS or "id" not in element:
            return False
        if len(element) > 1 and not (("note" not in element or _plain_text(element["note"], NOTE_MAX))
                                     and element.get("creation_source", CREATION_SOURCES[0]) in CREATION_SOURCES):
            return False
    ids = [element["id"] for element in products]
    if not ids:
        return True
    if not all(type(i) is str for i in ids):
        return False
    joined = "\n".join(ids)
    return joined.count("\n") == len(ids) - 1 and _PRODUCT_IDS.fullmatch(joined) is not None


def plainly_valid(row):
    """Whether BulkRowSchema().load(row) answers `row` unchanged, told in plain Python: rows of item,
    action and products (the bulk of large uploads) skip marshmallow's per-field work. False sends a
    row to load(), which finds and words its problems (or accepts a form this check leaves to it:
    families, restrictions, universal, a lower-case creation_source)."""
    return (type(row) is dict and row.keys() <= _ROW_KEYS and type(row.get("item_id")) is str
            and _ITEM.match(row["item_id"]) is not None and row.get("action") in (ADD, REPLACE)
            and ("note" not in row or _plain_text(row["note"], NOTE_MAX))
            and row.get("creation_source", CREATION_SOURCES[0]) in CREATION_SOURCES
            and _plain_products(row.get("products", [])))


class BulkRowsSchema(StrictSchema):
    """J1's JSON body; JSON Lines sends one row a line, CSV one line per item and vehicle."""
    rows = fields.List(fields.Nested(BulkRowSchema), required=True, validate=validate.Length(min=1))


class RowCountsSchema(Answer, DictSchema):
    total = fields.Integer(required=True, attribute="rows_total")
    done = fields.Integer(required=True, attribute="rows_done", metadata={"description": "ok + error; grows"})
    ok = fields.Integer(required=True, attribute="rows_ok")
    error = fields.Integer(required=True, attribute="rows_error")


class ChangeCountsSchema(Answer, DictSchema):
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    deleted = fields.Integer(required=True)


class Itself(fields.Nested):
    """A nested object dumped from the object itself (the job's counts are its own columns)."""

    def get_value(self, obj, attr, accessor=None, default=None):
        return obj


class BulkJobSchema(Answer, DictSchema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(JOB_STATUSES))
    date_created = ChangeDateTime(required=True)
    date_started = ChangeDateTime(metadata={"optional": "until a consumer takes the job",
                                            "description": "When a consumer first took it"})
    date_finished = ChangeDateTime(metadata={"optional": "until the job ends"})
    rows = Itself(RowCountsSchema, required=True)
    compatibilities = Itself(ChangeCountsSchema, required=True, metadata={
        "description": "Compatibilities the job's rows created, updated and deleted"})

    @post_dump
    def _drop_absent(self, data, **kwargs):
        return _without_none(data, ("date_started", "date_finished"))


def _without_none(data, keys):
    return {k: v for k, v in data.items() if k not in keys or v is not None}


class BulkRowResultSchema(Answer, DictSchema):
    row = fields.Integer(required=True, metadata={
        "description": "Position in `rows` or JSON Lines line (from 1); for CSV the item's first line "
                       "(the header is line 1)"})
    item_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(ROW_STATUSES))
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    deleted = fields.Integer(required=True)
    error = fields.Nested(ErrorSchema, metadata={"optional": "only for a row that failed",
        "description": "The error object the synchronous endpoint answers for the same problem; "
                       "`item_not_applied` for the other rows of an item whose row failed"})

    @post_dump
    def _drop_absent(self, data, **kwargs):
        return _without_none(data, ("error",))


BulkResultsPageSchema = page_envelope("BulkResultsPageSchema", "results", fields.Nested(BulkRowResultSchema),
                                      "Row results in row order")
BulkJobsPageSchema = page_envelope("BulkJobsPageSchema", "results", fields.Nested(BulkJobSchema),
                                   "The caller's jobs, newest first")


class BulkResultsQuerySchema(PagingQuerySchema):
    status = fields.String(validate=validate.OneOf(ROW_STATUSES), metadata={
        "description": "Keep the rows of this status (ERROR: the failed ones)"})


class BulkJobsQuerySchema(PagingQuerySchema):
    status = fields.String(validate=validate.OneOf(JOB_STATUSES), metadata={"description": "Keep jobs of this status"})
