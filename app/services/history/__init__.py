"""Change history of items' compatibilities and the state behind their ETags (extensions.md, H).

Writers call the recorders inside their transaction; the API reads pages and ETag data; the CLI
purges; the bundle exports and restores the records.
"""
from app.services.history.change_record import ChangeRecord
from app.services.history.imports import export_history, load_history, record_import, touch_claimed_items
from app.services.history.reads import HistoryPage, count_purgeable, list_history, purge_history
from app.services.history.record import record_created, record_deleted, record_updated, recording_updates, snapshot
from app.services.history.scope import API, BULK, IMPORT, OPERATOR, Actor, ChangeScope, change_scope, current_scope
from app.services.history.state import item_locked, list_etag, touch, write_etag

__all__ = ["API", "BULK", "IMPORT", "OPERATOR", "Actor", "ChangeRecord", "ChangeScope", "HistoryPage", "change_scope",
           "count_purgeable", "current_scope", "export_history", "item_locked", "list_etag", "list_history",
           "load_history", "purge_history", "record_created", "record_deleted", "record_import", "record_updated",
           "recording_updates", "snapshot", "touch", "touch_claimed_items", "write_etag"]
