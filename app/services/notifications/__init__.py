"""Notifications and the change feed (extensions.md, N): the outbox every change writes (outbox), the
applications' subscriptions and missed notifications (applications), the workers' deliveries (pump)
and the change feed (feed)."""
from app.services.notifications.applications import (
    exported_subscription,
    get_application,
    list_missed,
    load_subscriptions,
    update_application,
)
from app.services.notifications.feed import changes
from app.services.notifications.pump import pump_once

__all__ = ["changes", "exported_subscription", "get_application", "list_missed", "load_subscriptions", "pump_once",
           "update_application"]
