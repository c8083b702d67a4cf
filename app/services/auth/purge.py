"""Deleting the tokens and codes that can no longer authenticate anyone.

A client that mints a token on every run, or an attacker minting them in a loop, grows these tables
by a row a call: `flask tokens purge`, run daily from cron, keeps them to what is alive.
"""
from app.db import write_transaction
from app.models import AccessToken, AuthorizationCode, RefreshToken
from app.models.base import utcnow


def _dead(now):
    """(model, condition) of each kind of row that can no longer authenticate anyone."""
    return {"access_tokens": (AccessToken, (AccessToken.expires_at <= now) | (AccessToken.revoked == True)),  # noqa: E712
            "refresh_tokens": (RefreshToken, RefreshToken.expires_at <= now),
            "authorization_codes": (AuthorizationCode,
                                    (AuthorizationCode.expires_at <= now) | AuthorizationCode.used_at.is_null(False))}


def count_dead_tokens(now=None):
    """How many rows `purge_dead_tokens` would delete, of each kind (its --dry-run)."""
    return {name: model.select().where(dead).count() for name, (model, dead) in _dead(now or utcnow()).items()}


def purge_dead_tokens(now=None):
    """Deletes expired or revoked access tokens, expired refresh tokens and expired or used codes;
    answers how many of each. A used or revoked refresh token is kept until it expires: presented
    again it proves the grant was stolen and revokes it (tokens.exchange), which a deleted one could not."""
    with write_transaction():
        return {name: model.delete().where(dead).execute() for name, (model, dead) in _dead(now or utcnow()).items()}
