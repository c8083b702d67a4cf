"""The lookups every authenticated request and every item route run, prepared (app.db.prepared):
compiled by peewee once, run with each request's values."""
from app.db import param, prepared
from app.models import AccessToken, Item


def access_token_row(token_hash):
    """The token's (user, expires_at, revoked), or None for an unknown hash."""
    sql, params = prepared("access_token", lambda: AccessToken.select(
        AccessToken.user, AccessToken.expires_at, AccessToken.revoked).where(
        AccessToken.token_hash == param("hash")), {"hash": token_hash})
    return next(iter(AccessToken.raw(sql, *params)), None)


def item_row(item_id):
    """The item, every column, or None."""
    sql, params = prepared("item_by_id", lambda: Item.select().where(Item.id == param("id")), {"id": item_id})
    return next(iter(Item.raw(sql, *params)), None)
