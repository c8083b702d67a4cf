"""POST /oauth/token: client_credentials, authorization_code and refresh_token grants."""
from flask import current_app
from flask.views import MethodView

from app.http.auth import basic_client_credentials
from app.http.ratelimit import client_authentication_limits, counting_failed_client_authentications
from app.http.smorest import CLIENT_AUTHENTICATION, Blueprint
from app.services import auth
from schemas.auth import TokenParametersSchema, TokenRequestSchema, TokenSchema
from schemas.examples import common as examples

blp = Blueprint("oauth", __name__, description="Access tokens")


@blp.route("/oauth/token")
class Token(MethodView):
    @blp.auth("public", security=CLIENT_AUTHENTICATION)
    @client_authentication_limits
    @blp.errors("invalid_request", "invalid_grant", "unsupported_grant_type", "invalid_client", "not_found",
                "local_rate_limited")
    @blp.arguments(TokenParametersSchema, location="query", as_kwargs=False, arg_name="query")
    @blp.arguments(TokenRequestSchema, location="json_or_form", arg_name="body", required=False,
                   example=examples.TOKEN_REQUEST)
    @blp.response(200, TokenSchema, example=examples.TOKEN)
    def post(self, query, body):
        """Exchange a grant for an access token and a single-use refresh token

        Parameters may come as a form body (whatever its Content-Type), a JSON body or the query
        string; the client authenticates with HTTP Basic (RFC 6749 2.3.1) or with `client_id` and
        `client_secret` parameters. A parameter sent in more than one of these places must have the
        same value in each, else 400 `invalid_request` names it. Refresh tokens are single use: each
        refresh answers a new one, and presenting a used one again revokes every token of that grant
        (it may have been stolen).

        Failed client authentications are limited per `client_id` and per address (10 and 30 a
        minute by default): past either, every request of that client or address answers 429
        `local_rate_limited`, a correct secret too, until the time in `Retry-After`.
        """
        with counting_failed_client_authentications():
            sources = {"the query string": query, "the body": body, "HTTP Basic": basic_client_credentials()}
            return auth.exchange(sources, current_app.config)
