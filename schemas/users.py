"""Users (GET /users/me, GET /users/{user_id})."""
import marshmallow as ma
from marshmallow import fields


class UserSchema(ma.Schema):
    # Not `required`: `attributes` reduction may leave any of them out, as in every answer.
    id = fields.Integer(metadata={"description": "User id (a seller's is its seller_id)"})
    nickname = fields.String(metadata={"description": "Public name"})
    site_id = fields.String(allow_none=True, metadata={"description": "Site the user is registered in"})


class MeSchema(UserSchema):
    user_type = fields.String(metadata={"description": "`seller` when the user has listings, else `buyer`"})
