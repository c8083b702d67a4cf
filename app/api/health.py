"""GET /health: is this worker able to serve, database and its schema included."""
import marshmallow as ma
from flask.views import MethodView

from app.db import ping
from app.http.smorest import Blueprint
from app.readiness import require_current_schema
from schemas.common import Answer
from schemas.examples import common as examples

blp = Blueprint("health", __name__, description="Liveness and database health")


class HealthSchema(Answer, ma.Schema):
    status = ma.fields.String(metadata={"description": "ok when the service can serve requests"})
    database = ma.fields.String(metadata={"description": "ok when a query on the database answered"})


@blp.route("/health")
class Health(MethodView):
    @blp.auth("public")
    @blp.errors("service_unavailable")
    @blp.response(200, HealthSchema, example=examples.HEALTH)
    def get(self):
        """Check the service and its database

        Answers 503 with the error object when the database cannot be reached, or while its schema
        is not this release's (migrations pending: an operator runs `flask --app wsgi db upgrade`).
        """
        ping()
        require_current_schema()
        return {"status": "ok", "database": "ok"}
