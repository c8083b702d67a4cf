"""The Bearer guard that each endpoint declares: public, token, or token plus ownership."""
import functools
from urllib.parse import parse_qsl, unquote

from flask import current_app, g, request

from app.errors import ApiError
from app.http.current import current_request
from app.json_input import JsonInputError, loads
from app.replicas import on_primary
from app.services.auth.ownership import checked_item
from app.services.auth.tokens import resolve_token_owner, resolve_token_owner_and_item


def bearer_token():
    header = current_request().headers.get("Authorization", "")
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


def authenticate(invalid_status, message=None, item_id=None):
    """The caller's user id; 401 (or the endpoint's 403) when the token is missing or dead.
    `message` replaces the explanation where the spec fixes the text (endpoint 21). With the
    path's `item_id`, (user id, the item's row or None): both come from one statement."""
    token = bearer_token()
    if item_id is None:
        owner = resolve_token_owner(token)
    else:
        owner, item = resolve_token_owner_and_item(token, item_id)
    if owner is None:
        headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        raise ApiError("invalid_token", message or _refusal_message(token), status=invalid_status, headers=headers)
    # The application acting for the user, which the change history names (H1).
    g.client_id = owner[1]
    return owner[0] if item_id is None else (owner[0], item)


def guard(view, *, invalid_status=401, owner=None, message=None, item=checked_item):
    """Wraps a view: authenticate, then let `owner(view_kwargs, caller_id)` check permission.

    A route with an item in its path reads the item with the token (one round trip, not two) and
    hands the view its row as `item`, in place of `item_id`, as `arguments` hands it what it parsed:
    `item(item_id, row)` answers the row or raises (400 for a malformed id, 404 for no such item)."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        if "item_id" in kwargs:
            item_id = kwargs.pop("item_id")
            g.caller_id, row = authenticate(invalid_status, message, item_id)
            kwargs["item"] = item(item_id, row)
        elif getattr(view, "reads", None) == "replica":
            with on_primary():  # the token is the primary's: one issued a moment ago, or just revoked
                g.caller_id = authenticate(invalid_status, message)
        else:
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


def presented_client_id():
    """The client_id a token request names, found where the token endpoint finds it (HTTP Basic, else
    the body, else the query string; the first of repeated ones, as the parser takes), before the
    view parses anything: the limits on failed client authentications count per client_id."""
    basic = basic_client_credentials()
    if basic:
        return basic["client_id"]
    data = request.get_data(cache=True)
    try:
        # The depth-checked reader: this runs before the view, whose body parser refuses bad JSON.
        body = loads(data, current_app.config["JSON_MAX_DEPTH"]) if data.strip() else {}
    except JsonInputError:
        body = next(({"client_id": v} for k, v in parse_qsl(data.decode("utf-8", "replace"),
                                                             keep_blank_values=True) if k == "client_id"), {})
    value = body.get("client_id") if isinstance(body, dict) else None
    if value is None:
        value = request.args.get("client_id")
    return "" if value is None else str(value)
