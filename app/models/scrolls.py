"""Scans of a seller's items (search_type=scan): where each open scan has got to."""
from peewee import BigIntegerField, CharField, IntegerField

from app.models.base import BaseModel, DateTimeField, JSONField


class ItemScroll(BaseModel):
    """One scan: its filters, the last item id it answered and how many so far. Kept in the database,
    not in the cursor, because clients (pymeli) send the first scroll_id back for every page, as the
    marketplace allows, so the position must advance on the server whichever worker answers."""
    id = CharField(primary_key=True, max_length=32)
    seller_id = BigIntegerField()
    filters = JSONField()
    last_item_id = CharField(max_length=40, null=True)
    delivered = IntegerField(default=0)
    expires_at = DateTimeField(index=True)
