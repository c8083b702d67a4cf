"""Reading items (endpoint 3) and searching a seller's items by compatibility state (4, 5)."""
from dataclasses import dataclass

from app.models import Item
from app.services.auth.ownership import SEARCH_OWN_ITEMS, require_caller_is_user
from app.services.compat.item_state import item_tags
from app.services.paging import Page, page_of
from schemas.vocabulary import PAGE_LIMIT_DEFAULT

HAS_COMPATIBILITIES = "HAS_COMPATIBILITIES"
# The marketplace's boolean "yes" value, named in the site's language.
YES_VALUE_ID = "242085"
HAS_COMPATIBILITIES_TEXT = {"es": ("Tiene compatibilidades", "Sí"), "pt": ("Possui compatibilidades", "Sim")}


def has_compatibilities_attribute(language):
    name, yes = HAS_COMPATIBILITIES_TEXT.get((language or "es")[:2], HAS_COMPATIBILITIES_TEXT["es"])
    return {"id": HAS_COMPATIBILITIES, "name": name, "value_id": YES_VALUE_ID, "value_name": yes,
            "values": [{"id": YES_VALUE_ID, "name": yes, "struct": None}], "value_type": "boolean"}


def _attributes(item, language):
    # HAS_COMPATIBILITIES is derived from the item's compatibilities, never taken as stored.
    attributes = [attribute for attribute in item.attributes or []
                  if isinstance(attribute, dict) and attribute.get("id") != HAS_COMPATIBILITIES]
    if item.compatibilities_count > 0:
        attributes.append(has_compatibilities_attribute(language))
    return attributes


def get_item(item):
    """Endpoint 3: `item`, the item row with its site's `language`, with its derived `tags` and
    `shown_attributes` attached (ItemSchema dumps those in place of the stored tag columns and
    attributes)."""
    item.tags = item_tags(item)
    item.shown_attributes = _attributes(item, item.language)
    return item


@dataclass(frozen=True)
class SellerItems(Page):
    """A page of a seller's items (rows with their id), with the search's seller and filters."""

    seller_id: int
    filters: dict
    query: str | None = None


def search_seller_items(caller_id, seller_id, *, tags=None, status=None, has_compatibilities=None,
                        limit=PAGE_LIMIT_DEFAULT, offset=0):
    """Endpoints 4 and 5: a page of the seller's items matching every filter, ascending by id."""
    require_caller_is_user(caller_id, seller_id, SEARCH_OWN_ITEMS)
    query, filters = seller_items_query(seller_id, tags=tags, status=status, has_compatibilities=has_compatibilities)
    return page_of(query.order_by(Item.id), offset, limit, SellerItems, seller_id=seller_id, filters=filters)


def seller_items_query(seller_id, *, tags=None, status=None, has_compatibilities=None):
    """The seller's items matching every filter, and the filters as the answer names them.

    Each filter is a column of the item row kept current by item_state, so the search is
    answered from the (seller, tag_*) and (seller, status, compatibilities_count) indexes.
    """
    query = Item.select(Item.id).where(Item.seller == seller_id)
    filters = {}
    if tags:
        tag_list = list(dict.fromkeys(t.strip() for t in tags.split(",") if t.strip()))
        filters["tags"] = tag_list
        if "incomplete_compatibilities" in tag_list:
            query = query.where(Item.tag_incomplete == True)  # noqa: E712
        if "pending_compatibilities" in tag_list:
            query = query.where(Item.tag_pending == True)  # noqa: E712
    if status is not None:
        filters["status"] = status
        query = query.where(Item.status == status)
    if has_compatibilities is not None:
        filters["has_compatibilities"] = has_compatibilities
        query = query.where(Item.compatibilities_count > 0 if has_compatibilities
                            else Item.compatibilities_count == 0)
    return query, filters
