"""Listings, with the compatibility state that their tags and searches read kept on the row."""
import uuid

from peewee import BigIntegerField, BooleanField, CharField, DoubleField, ForeignKeyField, IntegerField

from app.models.auth import User
from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.catalog import Category, Domain
from app.models.common import Site


def new_state_token():
    return uuid.uuid4().hex


class Item(BaseModel):
    id = CharField(primary_key=True, max_length=40)
    # An integer the database gives the item when it is first stored, never changed nor reused
    # (app/services/row_keys/queries.py): the compatibilities and change records name the item by it.
    key = BigIntegerField(null=True, unique=True)
    site = ForeignKeyField(Site, on_delete="CASCADE", index=False)
    title = CharField(max_length=300)
    seller = ForeignKeyField(User, on_delete="CASCADE", index=False)
    category = ForeignKeyField(Category, on_delete="RESTRICT", index=True)
    domain = ForeignKeyField(Domain, on_delete="RESTRICT", index=False)
    status = CharField(max_length=20, default="active")
    price = DoubleField(null=True)
    currency_id = CharField(max_length=3, null=True)
    official_store_id = BigIntegerField(null=True)
    warranty = CharField(max_length=200, null=True)
    catalog_product_id = CharField(max_length=40, null=True)
    parent_item_id = CharField(max_length=40, null=True)
    deal_ids = JSONField(default=list)
    automatic_relist = BooleanField(default=False)
    catalog_listing = BooleanField(default=False)
    health = DoubleField(null=True)
    date_created = DateTimeField(default=utcnow)
    last_updated = DateTimeField(default=utcnow)
    attributes = JSONField(default=list)  # the seller's attributes; HAS_COMPATIBILITIES is derived
    # Derived state, rewritten by services.item_state after every write to the item.
    compatibilities_count = IntegerField(default=0)
    is_universal = BooleanField(default=False)
    has_exception = BooleanField(default=False)
    pending_suggestions = IntegerField(default=0)
    tag_incomplete = BooleanField(default=False)
    tag_pending = BooleanField(default=False)
    # A new random token whenever the item's compatibilities change (app/services/history/state.py):
    # the ETag of the list and the If-Match of writes (H2, H3). Random, not a counter, so that a
    # database restored from a bundle never hands out an ETag an older copy also gave.
    compat_state = CharField(max_length=32, default=new_state_token)
    # Change records of the item, kept with them (app/services/history): a history page's total
    # without counting 10,000 index entries.
    history_count = IntegerField(default=0)

    class Meta:
        indexes = (
            (("seller", "status", "compatibilities_count"), False),
            (("seller", "tag_incomplete"), False),
            (("seller", "tag_pending"), False),
            (("site", "status"), False),
            (("domain",), False),
        )


class Suggestion(BaseModel):
    """A product the marketplace suggests for an item; consumed when the seller adds it."""
    item = ForeignKeyField(Item, backref="suggestions", on_delete="CASCADE", index=False)
    product_id = CharField(max_length=40)
    date_created = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("item", "product_id"), True),)


class CompatibilityException(BaseModel):
    """A seller's report that the item's vehicle is missing from the catalog."""
    item = ForeignKeyField(Item, primary_key=True, on_delete="CASCADE")
    comment = CharField(max_length=255)
    date_created = DateTimeField(default=utcnow)
