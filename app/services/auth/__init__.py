"""Who the caller is and what it may touch: access tokens, the OAuth grants, item ownership."""
from app.services.auth.ownership import (
    item_history_reader_guard,
    item_seller_guard,
    known_item,
    require_item,
    require_item_seller,
)
from app.services.auth.purge import count_dead_tokens, purge_dead_tokens
from app.services.auth.tokens import (
    create_access_token,
    exchange,
    issue_authorization_code,
    resolve_access_token,
    store_access_token,
)

__all__ = ["count_dead_tokens", "create_access_token", "exchange", "issue_authorization_code",
           "item_history_reader_guard", "item_seller_guard", "known_item", "purge_dead_tokens", "require_item",
           "require_item_seller", "resolve_access_token", "store_access_token"]
