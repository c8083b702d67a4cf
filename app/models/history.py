"""The change history of items' compatibilities (extensions.md, H): one row per compatibility
created, updated or deleted, written in the transaction of the change."""
from peewee import BigAutoField, BigIntegerField, BooleanField, CharField, TextField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.uuid_keys import UUIDKeyField
from app.models.word_codes import ACTIONS, ACTOR_KINDS, CREATION_SOURCES, SOURCES, WordCodeField


class CompatibilityChange(BaseModel):
    """Before and after of what a change touched. No foreign keys: a record outlives the
    compatibility it describes (a DELETE's record is the only trace left), and a restore loads
    records before or without the compatibilities they name. The item is named by its integer key
    (Item.key), which an item keeps for ever: items are never deleted, only closed."""
    # Ids grow in commit order per item: every writer of an item holds the item's lock while it
    # inserts, so "newest first" is ORDER BY id DESC.
    id = BigAutoField()
    # The key, not the text id: the (item_key, id) index entries are narrow enough for PostgreSQL to
    # split a page after the new entry when a write adds records below greater items' ones, instead
    # of in halves, which left that index's pages half empty.
    item_key = BigIntegerField()
    compatibility_id = UUIDKeyField()
    action = WordCodeField(ACTIONS)
    product_id = CharField(max_length=40, null=True)
    universal = BooleanField(default=False)
    source = WordCodeField(SOURCES, null=True)
    creation_source = WordCodeField(CREATION_SOURCES, null=True)
    note_from = TextField(null=True)
    note_to = TextField(null=True)
    note_status_from = CharField(max_length=10, null=True)
    note_status_to = CharField(max_length=10, null=True)
    restrictions_from = JSONField(null=True)
    restrictions_to = JSONField(null=True)
    actor_kind = WordCodeField(ACTOR_KINDS)
    actor_user_id = BigIntegerField(null=True)
    actor_client_id = CharField(max_length=64, null=True)
    request_id = CharField(max_length=128, null=True)
    job_id = CharField(max_length=36, null=True)  # the bulk job that made it (actor BULK)
    date_created = DateTimeField(default=utcnow)

    class Meta:
        # No index of the dates: the retention purge finds its records by id (history/reads.py).
        indexes = ((("item_key", "id"), False),)  # an item's page, newest first
