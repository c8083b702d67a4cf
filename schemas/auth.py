"""POST /oauth/token: the grant request and the token answer."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import Answer
from schemas.vocabulary import GRANT_TYPES


class ClientIdField(fields.String):
    """The marketplace's application ids are numbers, and JSON clients send them as numbers."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        return super()._deserialize(value, attr, data, **kwargs)


class TokenParametersSchema(ma.Schema):
    """Every grant's parameters; which ones a grant needs is checked by the service, so a
    missing one answers the OAuth error `invalid_request` rather than a field error."""

    class Meta:
        unknown = ma.EXCLUDE

    grant_type = fields.String(metadata={"description": "client_credentials, authorization_code or refresh_token",
                                         "enum": list(GRANT_TYPES)})
    client_id = ClientIdField(metadata={"description": "Application id (a JSON number is accepted too); "
                                        "or send it with the secret as HTTP Basic (RFC 6749 2.3.1)"})
    client_secret = fields.String(metadata={"description": "Application secret, unless sent as HTTP Basic"})
    code = fields.String(metadata={"description": "authorization_code: the code issued to the user"})
    redirect_uri = fields.String(metadata={"description": "authorization_code: must match the code's"})
    refresh_token = fields.String(metadata={"description": "refresh_token: single use"})


class TokenRequestSchema(TokenParametersSchema):
    """The body's parameters, loaded as the query's; the document requires `grant_type` in a body
    (when absent the service answers `invalid_request`, as RFC 6749 5.2 says)."""
    OPENAPI = {"required": ["grant_type"]}


class TokenSchema(Answer, ma.Schema):
    access_token = fields.String(metadata={"description": "Send as Authorization: Bearer <access_token>"})
    token_type = fields.String(metadata={"description": "Always Bearer"})
    expires_in = fields.Integer(metadata={"description": "Seconds until the access token expires"})
    scope = fields.String(metadata={"description": "Granted scopes"})
    user_id = fields.Integer(metadata={"description": "The user the token acts for"})
    refresh_token = fields.String(metadata={"description": "Single use; exchange it for a new pair"})
