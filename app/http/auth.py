"""The Bearer guard that each endpoint declares: public, token, or token plus ownership."""
import functools
from urllib.parse import unquote

from flask import g, request

from app.errors import ApiError
from app.services.auth.tokens import resolve_token_owner


def bearer_token():
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


QUERY_TOKEN_NAMES = ("access_token", "token")


def _refusal_message(token):
    if token is None and any(name in request.args for name in QUERY_TOKEN_NAMES):
        # Old SDKs send ?access_token=; it is refused (URLs land in logs and JSONP pages), so say what works.
        return ("Access tokens in the query string are not accepted (URLs leak into logs): "
                "send the header Authorization: Bearer <token> instead")
    if token is None:
        return "Missing access token: send Authorization: Bearer <token>"
    return "Invalid access token: it is unknown, expired or revoked"


def authenticate(invalid_status, message=None):
    """The caller's user id; 401 (or the endpoint's 403) when the token is missing or dead.
    `message` replaces the explanation where the spec fixes the text (endpoint 21)."""
    token = bearer_token()
    owner = resolve_token_owner(token)
    if owner is None:
        headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        raise ApiError(invalid_status, "invalid_token", message or _refusal_message(token), headers=headers)
    # The application acting for the user, which the change history names (H1).
    g.client_id = owner[1]
    return owner[0]


def guard(view, *, invalid_status=401, owner=None, message=None):
    """Wraps a view: authenticate, then let `owner(view_kwargs, caller_id)` check permission."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        g.caller_id = authenticate(invalid_status, message)
        if owner is not None:
            owner(kwargs, g.caller_id)
        return view(*args, **kwargs)

    return wrapper


def basic_client_credentials():
    """OAuth client authentication by HTTP Basic (RFC 6749 §2.3.1, which a server MUST support):
    {client_id, client_secret}, or {} when the request has no Basic credentials."""
    credentials = request.authorization
    if credentials is None or credentials.type != "basic" or credentials.username is None:
        return {}
    # The RFC form-encodes both before Basic; most clients (authlib, requests) do not. A '%' can only
    # come from a client that did, since ids and issued secrets never contain one.
    client_id, secret = credentials.username, credentials.password or ""
    return {"client_id": unquote(client_id) if "%" in client_id else client_id,
            "client_secret": unquote(secret) if "%" in secret else secret}
