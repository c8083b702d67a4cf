"""The item read every GET /items/{id} runs, prepared (app.db.prepared): the SELECT names every
item column, and it is compiled once instead of on each read."""
from app.db import param, prepared
from app.models import Item, Site


def item_with_language(item_id):
    """The item row with its site's `language`, or None."""
    sql, params = prepared("item_read", lambda: Item.select(Item, Site.language)
                           .join(Site, on=(Item.site == Site.id)).where(Item.id == param("id")), {"id": item_id})
    return next(iter(Item.raw(sql, *params)), None)
