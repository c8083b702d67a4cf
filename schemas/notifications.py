"""Notifications and the change feed (extensions.md, N1 to N4): applications' subscriptions, missed
notifications and the pages of a user's changes."""
from marshmallow import Schema, fields, validate

from schemas.common import Answer, PagingQuerySchema, PagingSchema
from schemas.history import ChangeSchema

ITEMS_COMPATIBILITIES, BULK_JOBS = "items_compatibilities", "bulk_jobs"
TOPICS = (ITEMS_COMPATIBILITIES, BULK_JOBS)


class ApplicationSchema(Answer, Schema):
    """N1: never the client secret."""
    id = fields.String(attribute="client_id", metadata={"example": "5501"})
    owner_id = fields.Integer()
    redirect_uri = fields.String(allow_none=True)
    callback_url = fields.String(allow_none=True)
    topics = fields.List(fields.String())
    signing_secret = fields.String(metadata={"description": "Standard Webhooks secret (whsec_...)"})


# The form N2 accepts (app/services/notifications/addresses.py); the host is checked on top of it.
# "" (or null) removes it.
CALLBACK_URL_PATTERN = r"^(https?://[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)+(:[1-9][0-9]{0,3})?(/[!-~]*)?)?$"


class ApplicationUpdateSchema(Schema):
    """N2: a field left out keeps its value."""
    callback_url = fields.String(allow_none=True, validate=validate.Length(max=500), metadata={
        "description": "An http or https URL of a public host (no user name or password)",
        "pattern": CALLBACK_URL_PATTERN, "example": "https://example.org/notifications"})
    topics = fields.List(fields.String(validate=validate.OneOf(TOPICS)), validate=validate.Length(max=len(TOPICS)))


class NotificationSchema(Answer, Schema):
    """The real marketplace's body, also what N3 lists."""
    _id = fields.String(attribute="id", data_key="_id")
    resource = fields.String()
    user_id = fields.Integer()
    topic = fields.String()
    application_id = fields.String()
    attempts = fields.Integer()
    sent = fields.DateTime(allow_none=True)
    received = fields.DateTime()


class MissedFeedsQuerySchema(PagingQuerySchema):
    app_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    topic = fields.String(validate=validate.OneOf(TOPICS))


class MissedFeedsSchema(Answer, Schema):
    messages = fields.List(fields.Nested(NotificationSchema))
    paging = fields.Nested(PagingSchema)


class ChangesQuerySchema(Schema):
    after = fields.String(load_default=None, validate=validate.Regexp(
        r"^\d{1,20}(\.\d{1,20})?$", error="send the next_after of the page before, or nothing for the first page"))
    # At most a page of the API's paging (1 to 200), as every other `limit`.
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=200))


class FeedRecordSchema(ChangeSchema):
    item_id = fields.String()


class ChangesPageSchema(Answer, Schema):
    results = fields.List(fields.Nested(FeedRecordSchema), metadata={"description": "Oldest first"})
    next_after = fields.String(metadata={"description": "Send it as `after` for the next page (also when "
                                                        "this page is empty: changes may commit later)"})
