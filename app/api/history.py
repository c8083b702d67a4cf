"""Change history of an item's compatibilities (H1 of extensions.md)."""
from flask.views import MethodView

from app.http.smorest import Blueprint, raw_json
from app.services import history
from app.services.auth import item_history_reader_guard
from schemas.examples import history as examples
from schemas.history import HistoryPageSchema, HistoryQuerySchema, dump_history_page

blp = Blueprint("history", __name__, description="Change history of an item's compatibilities (H1)")


@blp.route("/items/<item_id>/compatibilities/history")
class ItemCompatibilitiesHistory(MethodView):
    @blp.auth("token", owner=item_history_reader_guard)
    @blp.errors("invalid_item_id", "item_not_found", "forbidden")
    @blp.arguments(HistoryQuerySchema, location="query")
    @blp.response(200, HistoryPageSchema, example=examples.HISTORY_PAGE)
    def get(self, query, item):
        """Read the change history of an item's compatibilities

        H1. One record per compatibility created, updated or deleted, by the API (`actor.kind` API,
        with the token's user and application and the request's `X-Request-Id`), the catalog import
        (IMPORT) or an operator command (OPERATOR), newest first; `since` keeps later changes only.
        `changes` holds the before and after of the note, its moderation status and the restrictions.
        Only the item's seller may read it; `since` is ISO 8601.
        """
        # Dumped by the schema module's fast path (compared with the schema by test_history_wire.py).
        return raw_json(dump_history_page(
            history.list_history(item, query["limit"], query["offset"], query.get("since"))))
