"""Scanning a seller's items (endpoints 4 and 5 with search_type=scan), past the offset limit."""
import datetime
import secrets
from dataclasses import dataclass

from app.db import lock_rows, write_transaction
from app.errors import ApiError
from app.models import Item, ItemScroll
from app.models.base import utcnow
from app.services.auth.ownership import SEARCH_OWN_ITEMS, require_caller_is_user
from app.services.items.reads import SellerItems, seller_items_query
from schemas.vocabulary import PAGE_LIMIT_DEFAULT

# As the marketplace's: a scan not read again for this long is gone.
SCROLL_TTL = datetime.timedelta(minutes=5)
FILTERS = ("tags", "status", "has_compatibilities")


@dataclass(frozen=True)
class ScannedItems(SellerItems):
    """A page of a scan, with the scroll_id that gives the next one."""

    scroll_id: str | None = None


def scan_seller_items(caller_id, seller_id, *, scroll_id=None, limit=PAGE_LIMIT_DEFAULT, **filters):
    """The next page of a scan, ascending by id: a new scan (without `scroll_id`) with the given
    filters, else the scan `scroll_id` names, with the filters it began with. The scroll_id stays
    the same for the whole scan and each call answers the page after the last one, as the
    marketplace's scan does; an exhausted scan answers no results. Not idempotent: a page lost on
    the wire is not answered again."""
    require_caller_is_user(caller_id, seller_id, SEARCH_OWN_ITEMS)
    now = utcnow()
    with write_transaction():
        if scroll_id is None:
            ItemScroll.delete().where(ItemScroll.expires_at < now).execute()
            scroll = ItemScroll(id=secrets.token_hex(16), seller_id=seller_id, delivered=0,
                                filters={k: v for k, v in filters.items() if k in FILTERS and v is not None})
            created = True
        else:
            rows = lock_rows(ItemScroll.select().where(
                ItemScroll.id == scroll_id, ItemScroll.seller_id == seller_id, ItemScroll.expires_at >= now))
            if not rows:
                message = (f"scroll_id names no open scan of user {seller_id} (a scan ends 5 minutes after its "
                           "last page); start a new one with search_type=scan")
                raise ApiError("validation_error", message,
                               [{"code": "invalid", "field": "scroll_id", "message": message}])
            scroll = rows[0]
            created = False
        query, applied = seller_items_query(seller_id, **scroll.filters)
        total = query.count()
        if scroll.last_item_id is not None:
            query = query.where(Item.id > scroll.last_item_id)
        items = list(query.order_by(Item.id).limit(limit))
        offset = scroll.delivered
        if items:
            scroll.last_item_id = items[-1].id
            scroll.delivered += len(items)
        scroll.expires_at = now + SCROLL_TTL
        scroll.save(force_insert=created)
    return ScannedItems(items, total, offset, limit, seller_id=seller_id, filters=applied, scroll_id=scroll.id)
