"""Change history of an item's compatibilities (H1): the query, the change record, its page, and
the same record as the bundle's `compatibility_history` section."""
import datetime

from marshmallow import fields, post_dump, validate

from schemas.bundle_fields import Id, one_of
from schemas.common import Answer, PagingQuerySchema, StrictSchema, page_envelope
from schemas.fields import UuidText
from schemas.vocabulary import COMPATIBILITY_SOURCES

ACTIONS = ("CREATE", "UPDATE", "DELETE")
ACTOR_KINDS = ("API", "IMPORT", "OPERATOR", "BULK")


def change_date(value):
    """A naive UTC datetime as ISO 8601 with microseconds and Z."""
    return value.isoformat(timespec="microseconds") + "Z"


class ChangeDateTime(fields.DateTime):
    """ISO 8601 UTC with microseconds and `Z`: records of one second stay apart, so the newest
    record's date_created, sent back as `since`, answers exactly the later ones. Loads any zone
    (naive means UTC) as naive UTC, which the database stores."""

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else change_date(value)

    def _deserialize(self, value, attr, data, **kwargs):
        parsed = super()._deserialize(value, attr, data, **kwargs)
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(datetime.UTC).replace(tzinfo=None)
        return parsed


class HistoryQuerySchema(PagingQuerySchema):
    since = ChangeDateTime(metadata={
        "description": "ISO 8601 (e.g. 2026-03-01T12:00:00Z; no zone means UTC): only changes after it",
        "example": "2026-03-01T12:00:00Z"})


def _without_absent(data, keys):
    return {k: v for k, v in data.items() if not (k in keys and v in (None, False))}


class FromToSchema(Answer, StrictSchema):
    before = fields.Raw(data_key="from", allow_none=True, metadata={"description": "Value before the change"})
    after = fields.Raw(data_key="to", allow_none=True, metadata={"description": "Value after the change"})


class ChangesSchema(StrictSchema):
    note = fields.Nested(FromToSchema, metadata={"description": "The note (null: none)"})
    note_status = fields.Nested(FromToSchema, metadata={"description": "Its moderation: PENDING, APPROVED, CHECKED"})
    restrictions = fields.Nested(FromToSchema, metadata={"description": "The restriction list (null: none)"})

    @post_dump
    def _drop_unchanged(self, data, **kwargs):
        return _without_absent(data, ("note", "note_status", "restrictions"))


class FastNested(fields.Nested):
    """Nested as documented, dumped without a nested schema per record: each record with its
    changes and actor made several schema dumps, much of a history page's time. `flat(value)` must
    answer exactly what the nested schema would (tests/history/test_history_wire.py compares them)."""

    def __init__(self, nested, flat, **kwargs):
        super().__init__(nested, **kwargs)
        self.flat = flat

    def _serialize(self, nested_obj, attr, obj, **kwargs):
        return None if nested_obj is None else self.flat(nested_obj)


def flat_changes(changes):
    out = {}
    for key in ("note", "note_status", "restrictions"):
        value = getattr(changes, key)
        if value is not None:
            out[key] = {"from": value.before, "to": value.after}
    return out


def flat_actor(actor):
    if actor.client_id is None:
        return {"user_id": actor.user_id, "kind": actor.kind}
    return {"user_id": actor.user_id, "client_id": actor.client_id, "kind": actor.kind}


class ActorSchema(Answer, StrictSchema):
    user_id = fields.Integer(required=True, allow_none=True,
                             metadata={"description": "The user whose token made it (null for an import)"})
    client_id = fields.String(allow_none=True, validate=validate.Length(max=64),
                              metadata={"optional": "when the token was issued to no application",
                                        "description": "The application, when the token was issued to one"})
    kind = fields.String(required=True, validate=one_of(ACTOR_KINDS),
                         metadata={"description": "API, IMPORT (catalog import), OPERATOR (operator command) "
                                                   "or BULK (a bulk job's row)"})

    @post_dump
    def _drop_absent(self, data, **kwargs):
        return _without_absent(data, ("client_id",))


class ChangeSchema(Answer, StrictSchema):
    id = fields.Integer(required=True, strict=True, metadata={"description": "Grows in commit order"})
    date_created = ChangeDateTime(required=True, metadata={"description": "When the change was committed"})
    action = fields.String(required=True, validate=one_of(ACTIONS),
                           metadata={"description": "CREATE, UPDATE or DELETE"})
    compatibility_id = UuidText(required=True)
    product_id = fields.String(allow_none=True, validate=validate.Length(max=40),
                               metadata={"optional": "for the universal setting",
                                         "description": "The vehicle; absent for the universal setting"})
    universal = fields.Boolean(load_default=False, metadata={"optional": "unless the change is the universal setting's",
                                                             "description": "true for the universal setting"})
    source = fields.String(allow_none=True, validate=one_of(COMPATIBILITY_SOURCES),
                           metadata={"description": "SELLER or CATALOGO"})
    creation_source = fields.String(allow_none=True, validate=validate.Length(max=30),
                                    metadata={"optional": "when none was given"})
    changes = FastNested(ChangesSchema, flat_changes, allow_none=True, metadata={"optional": "for a CREATE or DELETE",
        "description": "Before and after of what changed: the note, its status, the restrictions"})
    actor = FastNested(ActorSchema, flat_actor, required=True)
    request_id = fields.String(allow_none=True, validate=validate.Length(max=128),
                               metadata={"optional": "for a change made outside a request",
                                         "description": "X-Request-Id of the request that made it"})
    job_id = fields.String(allow_none=True, validate=validate.Length(max=36),
                           metadata={"optional": "unless a bulk job's row made it",
                                     "description": "The bulk job whose row made it (actor BULK)"})

    @post_dump
    def _drop_absent(self, data, **kwargs):
        return _without_absent(data, ("product_id", "universal", "creation_source", "changes", "request_id",
                                      "job_id"))


HistoryPageSchema = page_envelope("HistoryPageSchema", "results", fields.Nested(ChangeSchema), "Newest first")


def dump_change(record):
    """ChangeSchema().dump(record), in a fraction of its time (a page spent a large part of its
    time in marshmallow); tests/history/test_history_wire.py compares the two, keys and order."""
    out = {"id": record.id, "date_created": change_date(record.date_created), "action": record.action,
           "compatibility_id": record.compatibility_id}
    if record.product_id is not None:
        out["product_id"] = record.product_id
    if record.universal:
        out["universal"] = True
    out["source"] = record.source
    if record.creation_source is not None:
        out["creation_source"] = record.creation_source
    if record.changes is not None:
        out["changes"] = flat_changes(record.changes)
    out["actor"] = flat_actor(record.actor)
    if record.request_id is not None:
        out["request_id"] = record.request_id
    if record.job_id is not None:
        out["job_id"] = record.job_id
    return out


def dump_history_page(page):
    """HistoryPageSchema().dump(page), as dump_change does it."""
    return {"results": [dump_change(r) for r in page.items],
            "paging": {"total": page.total, "offset": page.offset, "limit": page.limit}}


class BundleChangeSchema(ChangeSchema):
    """A record of the bundle's `compatibility_history` section: the API's record plus item_id."""
    id = Id(required=True)
    item_id = fields.String(required=True, validate=validate.Length(min=1, max=40))

