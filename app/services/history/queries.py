"""The history's statement that every write runs: the items' new compatibility state and their
record counts (one item's prepared once, app.prepared_sql.prepared)."""
from app.models import Item
from app.prepared_sql import execute_prepared, param


def touch_items(item_ids, token, recorded):
    """The items' new state, and `recorded` more change records on each one's count: one prepared
    statement for one item (a write's usual case), else an IN list of up to 500 ids a statement."""
    if len(item_ids) == 1:
        execute_prepared("history_touch_item", lambda: Item.update(
            compat_state=param("token"), history_count=Item.history_count + param("recorded")).where(
            Item.id == param("id")), {"id": item_ids[0], "token": token, "recorded": recorded})
        return
    for start in range(0, len(item_ids), 500):
        Item.update(compat_state=token, history_count=Item.history_count + recorded).where(
            Item.id.in_(item_ids[start:start + 500])).execute()
