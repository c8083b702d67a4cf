"""A test-only blueprint built like the real ones, to exercise the shared conventions
(nested validation paths, the auth guard, rate limits, unexpected errors) in isolation."""
import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields, validate

from app.errors import ApiError
from app.http.ratelimit import compat_rate_limit
from app.http.smorest import Blueprint
from schemas.common import StrictSchema

blp = Blueprint("probe", __name__, description="Test probe")


class LineSchema(StrictSchema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[A-Z]{3}\d+$"))
    quantity = fields.Integer(validate=validate.Range(min=1))


class OrderSchema(StrictSchema):
    name = fields.String(required=True, metadata={"description": "The probe's name"})
    lines = fields.List(fields.Nested(LineSchema), required=True)


class ProbeAnswerSchema(ma.Schema):
    name = fields.String(metadata={"description": "The probe's name"})
    caller = fields.Integer(metadata={"description": "Who called"})
    lines = fields.Integer(metadata={"description": "How many lines"})


def only_seller_1001(view_kwargs, caller_id):
    if caller_id != 1001:
        raise ApiError("forbidden", "Only user 1001 may call the probe")


@blp.route("/probe/<name>")
class Probe(MethodView):
    @blp.auth("token")
    @blp.response(200, ProbeAnswerSchema)
    def get(self, name):
        """Read the probe"""
        from flask import g

        return {"name": name, "caller": g.caller_id, "lines": 0}

    @blp.auth("token", invalid_status=403, owner=only_seller_1001)
    @compat_rate_limit
    @blp.arguments(OrderSchema)
    @blp.response(200, ProbeAnswerSchema)
    def post(self, body, name):
        """Write the probe"""
        return {"name": body["name"], "lines": len(body["lines"])}


def query_probe(self, body):
    """Query the probe"""
    return {"name": body["name"], "lines": len(body["lines"])}


# The same view declared with blp.read and with the stack it stands for: the two must document and
# behave alike (tests/http/test_conventions.py).
ANSWER = {"name": "n", "lines": 0}


@blp.route("/probe-read")
class ProbeRead(MethodView):
    post = blp.read(ProbeAnswerSchema, "forbidden", example=ANSWER)(blp.arguments(OrderSchema)(query_probe))


@blp.route("/probe-read-stacked")
class ProbeReadStacked(MethodView):
    post = blp.auth("token")(blp.errors("forbidden")(blp.arguments(OrderSchema)(
        blp.response(200, ProbeAnswerSchema, example=ANSWER)(query_probe))))


@blp.route("/probe-boom")
class Boom(MethodView):
    @blp.auth("public")
    def get(self):
        """Fail unexpectedly"""
        raise RuntimeError("password=hunter2 at /srv/secret.py line 3")


def install(app):
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    api.register_blueprint(blp)
