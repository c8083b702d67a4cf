"""Category predictor (endpoint 27)"""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import predictor
from app.services.charts import get_site
from schemas.domain_discovery import DomainDiscoveryQuerySchema, DomainPredictionSchema
from schemas.examples import search as examples

blp = Blueprint("domain_discovery", __name__, description="Category predictor (endpoint 27)")


@blp.route("/sites/<site_id>/domain_discovery/search")
class DomainDiscoverySearch(MethodView):
    @blp.auth("public")
    @blp.errors(400, 404)
    @blp.arguments(DomainDiscoveryQuerySchema, location="query", as_kwargs=True)
    @blp.response(200, DomainPredictionSchema(many=True), example=examples.DOMAIN_PREDICTIONS)
    def get(self, site_id, q, limit):
        """Predict the domain and category of a listing from its title

        Endpoint 27. Best first; `[]` when nothing in the site is relevant to the text.
        """
        get_site(site_id)
        return predictor.predict(site_id, q, limit)
