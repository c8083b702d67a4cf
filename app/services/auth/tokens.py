"""Tokens: issuing, resolving and the OAuth grants. Every secret is stored as its SHA-256."""
import datetime
import hashlib
import hmac
import secrets

from app.db import write_transaction
from app.errors import ApiError
from app.models import AccessToken, Application, AuthorizationCode, RefreshToken, User
from app.models.base import utcnow
from app.services.auth import queries
from schemas.vocabulary import GRANT_TYPES

DEFAULT_SCOPE = "read write"


def digest(secret):
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _new_secret(prefix):
    return f"{prefix}-{secrets.token_urlsafe(32)}"


def resolve_access_token(token, now=None):
    """The user id a live token belongs to, or None."""
    owner = resolve_token_owner(token, now)
    return owner and owner[0]


def resolve_token_owner(token, now=None):
    """(user id, client id of the application it was issued to, or None) of a live token, or None."""
    if not token or len(token) > 512:
        return None
    return _live_owner(queries.access_token_row(digest(token)), now)


def resolve_token_owner_and_item(token, item_id):
    """(resolve_token_owner(token), the item `item_id` or None) in one statement: the token check
    and the item read of a route with an item in its path. The token is read afresh on every
    request (a revoked token is refused at once); the item only when the token is well formed."""
    if not token or len(token) > 512:
        return None, None
    row, item = queries.access_token_and_item_rows(digest(token), item_id)
    return _live_owner(row), item


def _live_owner(row, now=None):
    if row is None or row.revoked:
        return None
    if row.expires_at is not None and row.expires_at <= (now or utcnow()):
        return None
    return row.user_id, row.application_id


def create_access_token(user_id, ttl_seconds=None, application=None, scope=DEFAULT_SCOPE):
    """A new access token for a user; ttl_seconds None never expires (tests, demo, CLI)."""
    if User.get_or_none(User.id == user_id) is None:
        raise ApiError("not_found", f"User {user_id} does not exist")
    token = _new_secret("APP_USR")
    expires = None if ttl_seconds is None else utcnow() + datetime.timedelta(seconds=ttl_seconds)
    AccessToken.create(token_hash=digest(token), user=user_id, application=application,
                       scope=scope, expires_at=expires)
    return token


def store_access_token(user_id, token):
    """Registers a token chosen elsewhere (the bundle's fixed test tokens); never expires."""
    AccessToken.insert(token_hash=digest(token), user=user_id, expires_at=None).on_conflict(
        conflict_target=[AccessToken.token_hash],
        preserve=[AccessToken.user, AccessToken.expires_at]).execute()


def _authenticate_client(client_id, client_secret):
    app = Application.get_or_none(Application.client_id == str(client_id or ""))
    if app is None or not client_secret or not hmac.compare_digest(
            app.secret_hash, digest(client_secret)):
        # RFC 6749 §5.2: a 401 for a failed client authentication names the scheme to use.
        raise ApiError("invalid_client", "Unknown client_id or wrong client_secret",
                       headers={"WWW-Authenticate": 'Basic realm="oauth"'})
    return app


def _issue_pair(app, user_id, settings, scope=DEFAULT_SCOPE):
    access = create_access_token(user_id, settings["ACCESS_TOKEN_TTL_S"], app.client_id, scope)
    refresh = _new_secret("TG")
    RefreshToken.create(
        token_hash=digest(refresh), user=user_id, application=app.client_id, scope=scope,
        expires_at=utcnow() + datetime.timedelta(seconds=settings["REFRESH_TOKEN_TTL_S"]))
    return {"access_token": access, "token_type": "Bearer",
            "expires_in": settings["ACCESS_TOKEN_TTL_S"], "scope": scope,
            "user_id": user_id, "refresh_token": refresh}


def issue_authorization_code(client_id, user_id, ttl_seconds, redirect_uri=None):
    """The operator's stand-in for the consent screen: a one-time code for (app, user)."""
    app = Application.get_or_none(Application.client_id == str(client_id))
    if app is None:
        raise ApiError("not_found", f"Application {client_id} does not exist")
    if User.get_or_none(User.id == user_id) is None:
        raise ApiError("not_found", f"User {user_id} does not exist")
    code = _new_secret("TG-CODE")
    AuthorizationCode.create(
        code_hash=digest(code), application=app, user=user_id,
        redirect_uri=redirect_uri or app.redirect_uri,
        expires_at=utcnow() + datetime.timedelta(seconds=ttl_seconds))
    return code


def _require(args, *names):
    missing = [n for n in names if not args.get(n)]
    if missing:
        hint = ("; send the client's credentials as HTTP Basic or as client_id and client_secret parameters"
                if "client_id" in missing or "client_secret" in missing else "")
        raise ApiError("invalid_request", "Missing parameter(s): " + ", ".join(missing) + hint)


def _merged_parameters(sources):
    """One set of parameters from every place the request carried them ({where: parameters}, e.g. the
    query string, the body and HTTP Basic, RFC 6749 §2.3.1). A parameter given twice must say the
    same thing: two different values are refused rather than one guessed, so a client never gets a
    token for an application or a grant it did not mean. An empty value counts as not given."""
    merged, found_in = {}, {}
    for where, parameters in sources.items():
        for name, value in parameters.items():
            if value in (None, ""):
                continue
            if name in merged and merged[name] != value:
                raise ApiError("invalid_request", f"Parameter {name} differs between {found_in[name]} and {where}: "
                                                  "send it once, or the same value in each place")
            merged.setdefault(name, value)
            found_in.setdefault(name, where)
    return merged


def exchange(sources, settings):
    """POST /oauth/token for any supported grant type; `sources` maps where each set of parameters came
    from (the query string, the body, HTTP Basic credentials) to them."""
    args = _merged_parameters(sources)
    grant_type = args.get("grant_type")
    if not grant_type:
        raise ApiError("invalid_request", "Missing parameter(s): grant_type")
    if grant_type not in GRANT_TYPES:
        raise ApiError("unsupported_grant_type",
                           f"grant_type must be one of {', '.join(GRANT_TYPES)}")
    _require(args, "client_id", "client_secret")
    try:
        with write_transaction():
            app = _authenticate_client(args["client_id"], args["client_secret"])
            if grant_type == "client_credentials":
                return _issue_pair(app, app.owner_id, settings)
            if grant_type == "authorization_code":
                return _grant_code(app, args, settings)
            return _grant_refresh(app, args, settings)
    except _RefreshReused as reuse:
        # Committed apart from the failed exchange, which rolls back.
        with write_transaction():
            _revoke_grant(reuse.user_id, reuse.client_id)
        raise ApiError("invalid_grant", "The refresh_token was already used; sign in again") from None


class _RefreshReused(Exception):
    def __init__(self, user_id, client_id):
        super().__init__("refresh token reused")
        self.user_id, self.client_id = user_id, client_id


def _revoke_grant(user_id, client_id):
    """A used refresh token presented again may be stolen: end every session of that grant."""
    RefreshToken.update(revoked=True).where(
        RefreshToken.user == user_id, RefreshToken.application == client_id).execute()
    AccessToken.update(revoked=True).where(
        AccessToken.user == user_id, AccessToken.application == client_id).execute()


def _grant_code(app, args, settings):
    _require(args, "code")
    row = AuthorizationCode.get_or_none(AuthorizationCode.code_hash == digest(args["code"]))
    if row is None or row.application_id != app.client_id or row.used_at is not None \
            or row.expires_at <= utcnow():
        raise ApiError("invalid_grant", "The code is invalid, expired or already used")
    if row.redirect_uri and args.get("redirect_uri") and args["redirect_uri"] != row.redirect_uri:
        raise ApiError("invalid_grant", "redirect_uri does not match the code's")
    # The conditional update makes a second concurrent exchange of the same code fail.
    used = (AuthorizationCode.update(used_at=utcnow())
            .where(AuthorizationCode.code_hash == row.code_hash,
                   AuthorizationCode.used_at.is_null()).execute())
    if not used:
        raise ApiError("invalid_grant", "The code is invalid, expired or already used")
    return _issue_pair(app, row.user_id, settings)


def _grant_refresh(app, args, settings):
    _require(args, "refresh_token")
    row = RefreshToken.get_or_none(RefreshToken.token_hash == digest(args["refresh_token"]))
    if row is None or row.application_id != app.client_id:
        raise ApiError("invalid_grant", "Unknown refresh_token")
    if row.used_at is not None or row.revoked:
        raise _RefreshReused(row.user_id, app.client_id)
    if row.expires_at <= utcnow():
        raise ApiError("invalid_grant", "The refresh_token expired; sign in again")
    used = (RefreshToken.update(used_at=utcnow())
            .where(RefreshToken.token_hash == row.token_hash, RefreshToken.used_at.is_null())
            .execute())
    if not used:
        raise ApiError("invalid_grant", "The refresh_token was already used")
    return _issue_pair(app, row.user_id, settings, row.scope)
