"""One blueprint per area, named as its service package; each numbered endpoint of the spec is one view."""
from app.api import (
    auth,
    bulk,
    catalog,
    charts,
    compat,
    finder,
    fitment,
    health,
    history,
    items,
    notifications,
    orders,
    users,
)

AREAS = (health, catalog, auth, users, items, compat, bulk, history, orders, charts, finder, fitment, notifications)


def register_blueprints(api):
    api.register_blueprints([module.blp for module in AREAS])
