"""Notifications and the change feed (N1 to N4): an application's subscription, its missed
notifications, and a user's changes to page through without gaps."""
from flask import current_app, g
from flask.views import MethodView

from app.http.smorest import Blueprint, raw_json
from app.services import notifications
from app.services.auth.ownership import change_feed_guard
from schemas.examples import notifications as examples
from schemas.history import dump_change
from schemas.notifications import (
    ApplicationSchema,
    ApplicationUpdateSchema,
    ChangesPageSchema,
    ChangesQuerySchema,
    MissedFeedsQuerySchema,
    MissedFeedsSchema,
)

blp = Blueprint("notifications", __name__, description="Notifications and the change feed (N1 to N4)")
APPLICATION = ("application_not_found", "forbidden")


@blp.route("/applications/<client_id>")
class ApplicationById(MethodView):
    @blp.read(ApplicationSchema, *APPLICATION, example=examples.APPLICATION)
    def get(self, client_id):
        """Read an application's notification settings

        N1. Its callback URL, topics and the `signing_secret` that signs its notifications (Standard
        Webhooks); never the client secret. Only its owner.
        """
        return notifications.get_application(client_id, g.caller_id)

    @blp.auth("token")
    @blp.errors(*APPLICATION)
    @blp.arguments(ApplicationUpdateSchema, required=False, example=examples.APPLICATION_UPDATE)  # {} when absent
    @blp.response(200, ApplicationSchema, example=examples.APPLICATION)
    def put(self, changes, client_id):
        """Set where and what an application is notified of

        N2. `callback_url` (http or https, not a loopback, private or link-local address; checked again
        at each delivery) and `topics` (`items_compatibilities`, `bulk_jobs`); a field left out keeps
        its value. Only its owner.
        """
        return notifications.update_application(client_id, g.caller_id, changes,
                                               current_app.config["NOTIFY_ALLOW_PRIVATE"])


@blp.route("/missed_feeds")
class MissedFeeds(MethodView):
    @blp.read(MissedFeedsSchema, *APPLICATION, example=examples.MISSED_FEEDS)
    @blp.arguments(MissedFeedsQuerySchema, location="query")
    def get(self, query):
        """List the notifications no attempt delivered

        N3. An application's notifications that were retried for NOTIFY_RETRY_WINDOW_S without a 2xx,
        newest first, kept two days. Only the application's owner.
        """
        page = notifications.list_missed(query["app_id"], g.caller_id, query.get("topic"), query["limit"],
                                        query["offset"])
        return {"messages": page.items, "paging": {"total": page.total, "offset": page.offset, "limit": page.limit}}


@blp.route("/users/<int:user_id>/compatibilities/changes")
class UserChanges(MethodView):
    @blp.auth("token", owner=change_feed_guard)
    @blp.errors("forbidden")
    @blp.arguments(ChangesQuerySchema, location="query")
    @blp.response(200, ChangesPageSchema, example=examples.CHANGES)
    def get(self, query, user_id):
        """Page through every change to your items' compatibilities

        N4. Oldest first, as H1's records plus `item_id`. Send `next_after` back as `after`: a reader
        that keeps doing so sees every committed change exactly once, with no gap, also while many
        writers commit at once (a change shows once every transaction that started before it ended).
        """
        records, next_after = notifications.changes(user_id, query["after"], query["limit"])
        # Dumped by the history's fast path, as H1 is.
        return raw_json({"results": [{**dump_change(r), "item_id": r.item_id} for r in records],
                         "next_after": next_after})
