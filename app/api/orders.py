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
    @blp.errors(400)
    @blp.response(200, OrderSnapshotSchema, example=examples.SNAPSHOT)
    def get(self, order_id):
        """Read the compatibility snapshot of an order with a claim

        Endpoint 21. Only for the item's seller and only for orders with an incompatibility
        claim. `compatibility_id` and `compatibility_deleted` describe the item as it is now.
        Errors, checked in this order: 401 `invalid_token` (Invalid access token);
        400 `snapshot_not_found` (Compatibility snapshot for the order id not found: unknown or
        malformed order id, or an order without snapshot); 403 `forbidden` (Caller must be the
        seller of the item); 403 `order_without_claims` (The compatibility snapshot can only be
        retrieved for orders with claims).
        """
        return orders.order_snapshot(order_id, g.caller_id)
