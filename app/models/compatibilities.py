"""Compatibilities of items with catalog products, or the item's universal setting."""
from peewee import BooleanField, CharField, ForeignKeyField, TextField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.catalog import Product
from app.models.items import Item
from app.models.uuid_keys import UUIDKeyField
from app.models.word_codes import CREATION_SOURCES, SOURCES, WordCodeField
from schemas.vocabulary import DEFAULT, SELLER


class Compatibility(BaseModel):
    """One per (item, product); the universal setting is one row with no product."""
    id = UUIDKeyField(primary_key=True)
    item = ForeignKeyField(Item, backref="compatibilities", on_delete="CASCADE", index=False)
    product = ForeignKeyField(Product, null=True, on_delete="CASCADE")
    universal = BooleanField(default=False)
    domain_id = CharField(max_length=100, null=True)  # the product's domain
    source = WordCodeField(SOURCES, default=SELLER)
    creation_source = WordCodeField(CREATION_SOURCES, default=DEFAULT)
    note = TextField(null=True)
    note_status = CharField(max_length=10, null=True)  # PENDING | APPROVED | CHECKED
    restrictions = JSONField(null=True)  # [{attribute_id, attribute_values: [{values: [...]}]}]
    date_created = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("item", "product"), True),)
