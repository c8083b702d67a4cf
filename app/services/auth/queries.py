"""The lookups every authenticated request and every item route run, prepared (app.prepared_sql.prepared):
compiled by peewee once, run with each request's values."""
from collections import namedtuple

from peewee import JOIN

from app.models import AccessToken, Item, Site
from app.prepared_rows import prepared_instances
from app.prepared_sql import param


def access_token_row(token_hash):
    """The token's (user, application, expires_at, revoked), or None for an unknown hash."""
    return next(iter(prepared_instances(AccessToken, "access_token", lambda: AccessToken.select(
        AccessToken.user, AccessToken.application, AccessToken.expires_at, AccessToken.revoked).where(
        AccessToken.token_hash == param("hash")), {"hash": token_hash})), None)


def item_row(item_id):
    """The item, every column, or None."""
    return next(iter(prepared_instances(Item, "item_by_id", lambda: Item.select().where(Item.id == param("id")),
                                        {"id": item_id})), None)


# Aliased: the item's columns share the row.
TOKEN_COLUMNS = (("token_user_id", AccessToken.user), ("token_application_id", AccessToken.application),
                 ("token_expires_at", AccessToken.expires_at), ("token_revoked", AccessToken.revoked))
TokenRow = namedtuple("TokenRow", "user_id application_id expires_at revoked")


def access_token_and_item_rows(token_hash, item_id):
    """(token, item) in one statement, for a route with an item in its path: the token's row as
    access_token_row() reads it, and the item's (every column and its site's `language`, which
    endpoint 3 answers in) or None. (None, None) for an unknown hash."""
    row = next(iter(prepared_instances(Item, "access_token_and_item", lambda: AccessToken.select(
        *(field.alias(name) for name, field in TOKEN_COLUMNS), Item, Site.language)
        .join(Item, JOIN.LEFT_OUTER, on=(Item.id == param("item")))
        .join(Site, JOIN.LEFT_OUTER, on=(Item.site == Site.id))
        .where(AccessToken.token_hash == param("hash")), {"hash": token_hash, "item": item_id})), None)
    if row is None:
        return None, None
    token = TokenRow(*(field.python_value(getattr(row, name)) for name, field in TOKEN_COLUMNS))
    return token, row if row.id is not None else None
