"""The history's statement that every write runs (named and prepared once, app.db.prepared): the
item's new compatibility state and its record count."""
from app.db import execute_prepared, param
from app.models import Item


def touch_item(item_id, token, recorded):
    execute_prepared("history_touch_item", lambda: Item.update(
        compat_state=param("token"), history_count=Item.history_count + param("recorded")).where(
        Item.id == param("id")), {"id": item_id, "token": token, "recorded": recorded})
