"""The catalog (public, but endpoint 7): currencies and sites, a site's item search, the compatibility
rules of its domains (endpoint 1), restriction values (7) and the category predictor (27)."""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import catalog
from schemas.catalog import CompatibilityDomainEntrySchema, RestrictionValuesQuerySchema, RestrictionValuesSchema
from schemas.domain_discovery import DomainDiscoveryQuerySchema, DomainPredictionSchema
from schemas.examples import catalog as catalog_examples
from schemas.examples import common as examples
from schemas.examples import search as search_examples
from schemas.search import SearchQueryArgsSchema, SearchResponseSchema
from schemas.sites import CurrencySchema, SiteSchema

blp = Blueprint("catalog", __name__, description="Currencies, sites, site search, compatibility rules of domains "
                "(endpoints 1, 7) and the category predictor (27)")

@blp.route("/currencies")
class Currencies(MethodView):
    @blp.auth("public")
    @blp.response(200, CurrencySchema(many=True), example=examples.CURRENCIES)
    def get(self):
        """List the currencies"""
        return catalog.list_currencies()


@blp.route("/currencies/<currency_id>")
class CurrencyById(MethodView):
    @blp.auth("public")
    @blp.errors("currency_not_found")
    @blp.response(200, CurrencySchema, example=examples.CURRENCY)
    def get(self, currency_id):
        """Read one currency"""
        return catalog.get_currency(currency_id)


@blp.route("/sites")
class Sites(MethodView):
    @blp.auth("public")
    @blp.response(200, SiteSchema(many=True), example=examples.SITES)
    def get(self):
        """List the sites"""
        return catalog.list_sites()


@blp.route("/sites/<site_id>")
class SiteById(MethodView):
    @blp.auth("public")
    @blp.errors("site_not_found")
    @blp.response(200, SiteSchema, example=examples.SITE)
    def get(self, site_id):
        """Read one site"""
        return catalog.get_site(site_id)


@blp.route("/sites/<site_id>/search")
class SiteSearch(MethodView):
    @blp.auth("public")
    @blp.errors("invalid_category", "site_not_found")
    @blp.arguments(SearchQueryArgsSchema, location="query", as_kwargs=True)
    @blp.response(200, SearchResponseSchema, example=search_examples.SEARCH)
    def get(self, site_id, q, limit, offset, sort, category=None):
        """Search the site's active items by the words of their titles

        Common conventions: paging, results, sort, available_sorts, filters, available_filters.
        """
        return catalog.search_items(site_id, q, limit=limit, offset=offset, sort=sort, category_id=category)


@blp.route("/catalog/dumps/domains/<site_id>/compatibilities")
class CompatibilityDomainDump(MethodView):
    @blp.auth("public")
    @blp.errors("site_not_found")
    @blp.response(200, CompatibilityDomainEntrySchema(many=True), example=catalog_examples.DOMAIN_DUMP)
    def get(self, site_id):
        """Dump the compatibility rules of a site's domains

        Endpoint 1. Public. Every item-side domain of the site with the domains it can be made
        compatible with and, per pair, the categories that accept compatibilities with their
        `required`, `note_status`, `restrictions_status` and `universal_status`, in stored order.
        """
        return catalog.domain_dump(site_id)


@blp.route("/catalog_compatibilities/restrictions/values")
class RestrictionValues(MethodView):
    @blp.auth("token")
    @blp.errors("domain_not_found")
    @blp.arguments(RestrictionValuesQuerySchema, location="query")
    @blp.response(200, RestrictionValuesSchema, example=catalog_examples.RESTRICTION_VALUES)
    def get(self, args):
        """Read the restriction values of a domain pair

        Endpoint 7. `main_domain_id` is the vehicle domain, `secondary_domain_id` the item's
        domain; the answer lists the values allowed in `restrictions` (for example `POSITION`),
        `{"attributes_values": []}` when the pair has none; both domains must exist.
        """
        return catalog.restriction_values(args["main_domain_id"], args["secondary_domain_id"])


@blp.route("/sites/<site_id>/domain_discovery/search")
class DomainDiscoverySearch(MethodView):
    @blp.auth("public")
    @blp.errors("site_not_found")
    @blp.arguments(DomainDiscoveryQuerySchema, location="query", as_kwargs=True)
    @blp.response(200, DomainPredictionSchema(many=True), example=search_examples.DOMAIN_PREDICTIONS)
    def get(self, site_id, q, limit):
        """Predict the domain and category of a listing from its title

        Endpoint 27. Best first; `[]` when nothing in the site is relevant to the text.
        """
        catalog.get_site(site_id)
        return catalog.predict(site_id, q, limit)
