"""Users (GET /users/me, GET /users/{user_id})."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import Answer


class UserSchema(Answer, ma.Schema):
    id = fields.Integer(metadata={"description": "User id (a seller's is its seller_id)"})
    nickname = fields.String(metadata={"description": "Public name"})
    site_id = fields.String(allow_none=True, metadata={"description": "Site the user is registered in"})


class MeSchema(UserSchema):
    user_type = fields.String(metadata={"description": "`seller` when the user has listings, else `buyer`"})
