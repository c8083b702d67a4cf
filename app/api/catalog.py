"""The catalog (public, but endpoint 7): currencies and sites, a site's item search, the compatibility
rules of its domains (endpoint 1), restriction values (7) and the category predictor (27)."""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import catalog, fitment
from schemas.catalog import CompatibilityDomainEntrySchema, RestrictionValuesQuerySchema, RestrictionValuesSchema
from schemas.domain_discovery import DomainDiscoveryQuerySchema, DomainPredictionSchema
from schemas.examples import catalog as catalog_examples
from schemas.examples import common as examples
from schemas.examples import fitment as fitment_examples
from schemas.examples import search as search_examples
from schemas.fitment import FitmentSearchQueryArgsSchema, FitmentSearchResponseSchema
from schemas.sites import CurrencySchema, SiteSchema

blp = Blueprint("catalog", __name__, description="Currencies, sites, site search, compatibility rules of domains "
                "(endpoints 1, 7) and the category predictor (27)")

@blp.route("/currencies")
class Currencies(MethodView):
    @blp.read(CurrencySchema(many=True), auth="public", reads="replica", example=examples.CURRENCIES)
    def get(self):
        """List the currencies"""
        return catalog.list_currencies()


@blp.route("/currencies/<currency_id>")
class CurrencyById(MethodView):
    @blp.read(CurrencySchema, "currency_not_found", auth="public", reads="replica", example=examples.CURRENCY)
    def get(self, currency_id):
        """Read one currency"""
        return catalog.get_currency(currency_id)


@blp.route("/sites")
class Sites(MethodView):
    @blp.read(SiteSchema(many=True), auth="public", reads="replica", example=examples.SITES)
    def get(self):
        """List the sites"""
        return catalog.list_sites()


@blp.route("/sites/<site_id>")
class SiteById(MethodView):
    @blp.read(SiteSchema, "site_not_found", auth="public", reads="replica", example=examples.SITE)
    def get(self, site_id):
        """Read one site"""
        return catalog.get_site(site_id)


@blp.route("/sites/<site_id>/search")
class SiteSearch(MethodView):
    @blp.read(FitmentSearchResponseSchema, "invalid_category", "site_not_found", "product_not_found",
              "unknown_attribute", auth="public", reads="replica",
              examples=fitment_examples.SEARCH_EXAMPLES)
    @blp.arguments(FitmentSearchQueryArgsSchema, location="query", as_kwargs=True)
    def get(self, site_id, limit, offset, sort, q=None, category=None, compatible_with=None,
            compatibility_filter=None):
        """Search the site's active items by the words of their titles, or the parts that fit a vehicle

        Common conventions: paging, results, sort, available_sorts, filters, available_filters.
        Buyer fitment (extensions.md B1, B2): `compatible_with` (a vehicle) or `compatibility_filter`
        (a partly known one) keeps the items that fit, each result with `compatibility` (`status`
        COMPATIBLE or UNDETERMINED; the moderated `note` and `restrictions` when one vehicle is meant);
        `q` is then optional; a malformed filter is a 400 `validation_error` naming its part.
        """
        if compatible_with is None and compatibility_filter is None:
            return catalog.search_items(site_id, q, limit=limit, offset=offset, sort=sort, category_id=category)
        return fitment.search_fitting_items(site_id, q, limit=limit, offset=offset, sort=sort, category_id=category,
                                            compatible_with=compatible_with,
                                            compatibility_filter=compatibility_filter)


@blp.route("/catalog/dumps/domains/<site_id>/compatibilities")
class CompatibilityDomainDump(MethodView):
    @blp.read(CompatibilityDomainEntrySchema(many=True), "site_not_found", auth="public",
              reads="replica", example=catalog_examples.DOMAIN_DUMP)
    def get(self, site_id):
        """Dump the compatibility rules of a site's domains

        Endpoint 1. Public. Every item-side domain of the site with the domains it can be made
        compatible with and, per pair, the categories that accept compatibilities with their
        `required`, `note_status`, `restrictions_status` and `universal_status`, in stored order.
        """
        return catalog.domain_dump(site_id)


@blp.route("/catalog_compatibilities/restrictions/values")
class RestrictionValues(MethodView):
    @blp.read(RestrictionValuesSchema, "domain_not_found", example=catalog_examples.RESTRICTION_VALUES)
    @blp.arguments(RestrictionValuesQuerySchema, location="query")
    def get(self, args):
        """Read the restriction values of a domain pair

        Endpoint 7. `main_domain_id` is the vehicle domain, `secondary_domain_id` the item's
        domain; the answer lists the values allowed in `restrictions` (for example `POSITION`),
        `{"attributes_values": []}` when the pair has none; both domains must exist.
        """
        return catalog.restriction_values(args["main_domain_id"], args["secondary_domain_id"])


@blp.route("/sites/<site_id>/domain_discovery/search")
class DomainDiscoverySearch(MethodView):
    @blp.read(DomainPredictionSchema(many=True), "site_not_found", auth="public",
              reads="replica", example=search_examples.DOMAIN_PREDICTIONS)
    @blp.arguments(DomainDiscoveryQuerySchema, location="query", as_kwargs=True)
    def get(self, site_id, q, limit):
        """Predict the domain and category of a listing from its title

        Endpoint 27. Best first; `[]` when nothing in the site is relevant to the text.
        """
        return catalog.predict(site_id, q, limit)
