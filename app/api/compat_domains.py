"""Compatibility catalog: domain rules, family counts and restriction values (endpoints 1, 2, 7)."""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import catalog
from schemas.catalog import CompatibilityDomainEntrySchema, RestrictionValuesQuerySchema, RestrictionValuesSchema
from schemas.examples import catalog as examples

blp = Blueprint("compatibility_catalog", __name__,
                description="Compatibility catalog: domain rules, family counts and restriction values")


@blp.route("/catalog/dumps/domains/<site_id>/compatibilities")
class CompatibilityDomainDump(MethodView):
    @blp.auth("public")
    @blp.errors(404)
    @blp.response(200, CompatibilityDomainEntrySchema(many=True), example=examples.DOMAIN_DUMP)
    def get(self, site_id):
        """Dump the compatibility rules of a site's domains

        Endpoint 1. Public. Every item-side domain of the site with the domains it can be made
        compatible with and, per pair, the categories that accept compatibilities with their
        `required`, `note_status`, `restrictions_status` and `universal_status`, in stored order.
        Errors: 404 `site_not_found` when the site does not exist.
        """
        return catalog.domain_dump(site_id)


@blp.route("/catalog_compatibilities/restrictions/values")
class RestrictionValues(MethodView):
    @blp.auth("token")
    @blp.errors(400, 404)
    @blp.arguments(RestrictionValuesQuerySchema, location="query")
    @blp.response(200, RestrictionValuesSchema, example=examples.RESTRICTION_VALUES)
    def get(self, args):
        """Read the restriction values of a domain pair

        Endpoint 7. `main_domain_id` is the vehicle domain, `secondary_domain_id` the item's
        domain; the answer lists the values allowed in `restrictions` (for example `POSITION`),
        `{"attributes_values": []}` when the pair has none.
        Errors: 400 `validation_error` when a parameter is missing; 401 `invalid_token`;
        404 `domain_not_found` when either domain does not exist.
        """
        return catalog.restriction_values(args["main_domain_id"], args["secondary_domain_id"])
