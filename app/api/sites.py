"""Currencies and sites, public common resources."""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import common
from schemas.examples import common as examples
from schemas.sites import CurrencySchema, SiteSchema

blp = Blueprint("common", __name__, description="Currencies and sites")


@blp.route("/currencies")
class Currencies(MethodView):
    @blp.auth("public")
    @blp.response(200, CurrencySchema(many=True), example=examples.CURRENCIES)
    def get(self):
        """List the currencies"""
        return common.list_currencies()


@blp.route("/currencies/<currency_id>")
class CurrencyById(MethodView):
    @blp.auth("public")
    @blp.errors(404)
    @blp.response(200, CurrencySchema, example=examples.CURRENCY)
    def get(self, currency_id):
        """Read one currency"""
        return common.get_currency(currency_id)


@blp.route("/sites")
class Sites(MethodView):
    @blp.auth("public")
    @blp.response(200, SiteSchema(many=True), example=examples.SITES)
    def get(self):
        """List the sites"""
        return common.list_sites()


@blp.route("/sites/<site_id>")
class SiteById(MethodView):
    @blp.auth("public")
    @blp.errors(404)
    @blp.response(200, SiteSchema, example=examples.SITE)
    def get(self, site_id):
        """Read one site"""
        return common.get_site(site_id)
