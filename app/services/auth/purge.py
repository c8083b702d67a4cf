"""Deleting the tokens and codes that can no longer authenticate anyone.

A client that mints a token on every run, or an attacker minting them in a loop, grows these tables
by a row a call: `flask tokens purge`, run daily from cron, keeps them to what is alive.
"""
from app.db import write_transaction
from app.models import AccessToken, AuthorizationCode, RefreshToken
from app.models.base import utcnow


def purge_dead_tokens(now=None):
    """Deletes expired or revoked access tokens, expired refresh tokens and expired or used codes;
    answers how many of each. A used or revoked refresh token is kept until it expires: presented
    again it proves the grant was stolen and revokes it (tokens.exchange), which a deleted one could not."""
    now = now or utcnow()
    with write_transaction():
        access = AccessToken.delete().where(
            (AccessToken.expires_at <= now) | (AccessToken.revoked == True)).execute()  # noqa: E712
        refresh = RefreshToken.delete().where(RefreshToken.expires_at <= now).execute()
        codes = AuthorizationCode.delete().where(
            (AuthorizationCode.expires_at <= now) | AuthorizationCode.used_at.is_null(False)).execute()
    return {"access_tokens": access, "refresh_tokens": refresh, "authorization_codes": codes}
