"""The Bearer guard that each endpoint declares: public, token, or token plus ownership."""
import functools

from flask import g, request

from app.errors import ApiError
from app.services.auth.tokens import resolve_token_owner


def bearer_token():
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authenticate(invalid_status):
    """The caller's user id; 401 (or the endpoint's 403) when the token is missing or dead."""
    token = bearer_token()
    owner = resolve_token_owner(token)
    if owner is None:
        message = ("Missing access token: send Authorization: Bearer <token>" if token is None
                   else "Invalid access token: it is unknown, expired or revoked")
        headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        raise ApiError(invalid_status, "invalid_token", message, headers=headers)
    # The application acting for the user, which the change history names (H1).
    g.client_id = owner[1]
    return owner[0]


def guard(view, *, invalid_status=401, owner=None):
    """Wraps a view: authenticate, then let `owner(view_kwargs, caller_id)` check permission."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        g.caller_id = authenticate(invalid_status)
        if owner is not None:
            owner(kwargs, g.caller_id)
        return view(*args, **kwargs)

    return wrapper
