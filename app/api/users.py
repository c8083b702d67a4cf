"""Users: the token's own user (SDKs call /users/me to learn who they act for) and public records."""
from flask import g
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import users
from schemas.users import MeSchema, UserSchema

blp = Blueprint("users", __name__, description="Users: the caller and public records")


@blp.route("/users/me")
class Me(MethodView):
    @blp.read(MeSchema, "user_not_found",
              example={"id": 1001, "nickname": "TALLER_SUR", "site_id": "MLA", "user_type": "seller"})
    def get(self):
        """Read the user the access token acts for

        Its public record plus `user_type`.
        """
        return users.get_me(g.caller_id)


@blp.route("/users/<int:user_id>")
class UserById(MethodView):
    @blp.read(UserSchema, "user_not_found", example={"id": 1001, "nickname": "TALLER_SUR", "site_id": "MLA"})
    def get(self, user_id):
        """Read a user's public record

        Any valid token.
        """
        return users.get_user(user_id)
