"""Compatibilities of items with catalog products, or the item's universal setting."""
from peewee import BooleanField, CharField, ForeignKeyField, TextField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.catalog import Product
from app.models.items import Item
from app.models.uuid_keys import UUIDKeyField
from app.models.word_codes import CREATION_SOURCES, SOURCES, WordCodeField
from schemas.vocabulary import DEFAULT, SELLER


class Compatibility(BaseModel):
    """One per (item, product); the universal setting is one row with no product.

    The item and the product are named by their integer keys (Item.key, Product.key), not their text
    ids: a row eight bytes narrower each, and (item_key, product_key) index entries narrow enough for
    PostgreSQL to split a page after a new entry, when a write adds an item's products below the
    greater items' ones, instead of in halves. The product's domain is read from the product."""
    id = UUIDKeyField(primary_key=True)
    item = ForeignKeyField(Item, field=Item.key, column_name="item_key", object_id_name="item_key",
                           backref="compatibilities", on_delete="CASCADE", index=False)
    product = ForeignKeyField(Product, field=Product.key, column_name="product_key", object_id_name="product_key",
                              null=True, on_delete="CASCADE")
    universal = BooleanField(default=False)
    source = WordCodeField(SOURCES, default=SELLER)
    creation_source = WordCodeField(CREATION_SOURCES, default=DEFAULT)
    note = TextField(null=True)
    note_status = CharField(max_length=10, null=True)  # PENDING | APPROVED | CHECKED
    restrictions = JSONField(null=True)  # [{attribute_id, attribute_values: [{values: [...]}]}]
    date_created = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("item", "product"), True),)
