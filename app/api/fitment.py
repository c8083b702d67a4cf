"""Buyer fitment (extensions.md B3): one item checked against one vehicle. B1 and B2 are parameters of
the site search (app/api/catalog.py)."""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import fitment
from schemas.examples import fitment as examples
from schemas.fitment import CheckCompatibilitySchema, CompatibilityCheckSchema

blp = Blueprint("fitment", __name__, description="Buyer fitment: does a listing fit a vehicle (extensions.md B)")


@blp.route("/items/<item_id>/check_compatibility")
class ItemCompatibilityCheck(MethodView):
    @blp.read(CompatibilityCheckSchema, "invalid_item_id", "item_not_found", "product_not_found", "unknown_attribute",
              auth="public", reads="replica", examples=examples.CHECK_EXAMPLES)
    @blp.arguments(CheckCompatibilitySchema, examples=examples.CHECK_REQUEST_EXAMPLES)
    def post(self, body, item_id):
        """Check whether an item fits a vehicle

        B3. Public. `product_id` (a vehicle) or `attributes` (a partly known one, as the search's
        `compatibility_filter`): COMPATIBLE when the item fits every vehicle meant, UNDETERMINED when
        only some, NOT_COMPATIBLE when none (also for a vehicle of another site, or of a domain the
        item's domain cannot be compatible with). `note` (once moderated) and `restrictions` when
        exactly one vehicle is meant. Closed and paused items answer too.
        """
        return fitment.check_compatibility(item_id, body.get("product_id"), body.get("attributes"))
