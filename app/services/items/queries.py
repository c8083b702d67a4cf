"""The item read every GET /items/{id} runs, prepared (app.db.prepared): the SELECT names every
item column, and it is compiled once instead of on each read."""
from app.db import param
from app.models import Item, Site
from app.prepared_rows import prepared_instances


def item_with_language(item_id):
    """The item row with its site's `language`, or None."""
    return next(iter(prepared_instances(Item, "item_read", lambda: Item.select(Item, Site.language).join(
        Site, on=(Item.site == Site.id)).where(Item.id == param("id")), {"id": item_id})), None)
