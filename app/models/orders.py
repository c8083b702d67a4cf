"""Orders with the compatibility snapshot of the buyer's choice, and incompatibility claims."""
from peewee import BigIntegerField, CharField, ForeignKeyField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.items import Item


class Order(BaseModel):
    id = BigIntegerField(primary_key=True)
    item = ForeignKeyField(Item, on_delete="CASCADE")
    buyer_id = BigIntegerField(null=True)
    date_created = DateTimeField(default=utcnow)
    # Endpoint 21's body minus item_id and seller_id (derived), as imported.
    snapshot = JSONField(null=True)
    # The snapshot's product, kept in a column so claims count per compatibility by index.
    snapshot_product_id = CharField(max_length=40, null=True)

    class Meta:
        indexes = ((("item", "snapshot_product_id"), False),)


class Claim(BaseModel):
    id = BigIntegerField(primary_key=True)
    order = ForeignKeyField(Order, backref="claims", on_delete="CASCADE")
    reason = CharField(max_length=60, default="INCOMPATIBLE_PART")
    date_created = DateTimeField(default=utcnow)
