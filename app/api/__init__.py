"""One blueprint per area, named as its service package; each numbered endpoint of the spec is one view."""
from app.api import auth, catalog, charts, compat, health, items, orders, users

AREAS = (health, catalog, auth, users, items, compat, orders, charts)


def register_blueprints(api):
    for module in AREAS:
        api.register_blueprint(module.blp)
