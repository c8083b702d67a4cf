"""Compatibility snapshots of orders (endpoint 21)"""
from flask import g
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import orders
from schemas.examples import orders as examples
from schemas.orders import OrderSnapshotSchema

blp = Blueprint("orders", __name__, description="Compatibility snapshots of orders (endpoint 21)")


@blp.route("/compats-snapshots/orders/<order_id>")
class OrderCompatibilitySnapshot(MethodView):
    @blp.auth("token", message="Invalid access token")  # the spec's text, exactly
    @blp.errors("snapshot_not_found", "forbidden", "order_without_claims")
    @blp.response(200, OrderSnapshotSchema, example=examples.SNAPSHOT)
    def get(self, order_id):
        """Read the compatibility snapshot of an order with a claim

        Endpoint 21. Only for the item's seller and only for orders with an incompatibility
        claim. `compatibility_id` and `compatibility_deleted` describe the item as it is now.
        Checked in this order: the token; the order and its snapshot (an unknown or malformed
        order id, or an order without snapshot, answers as not found); the caller is the item's
        seller; the order has a claim.
        """
        return orders.order_snapshot(order_id, g.caller_id)
