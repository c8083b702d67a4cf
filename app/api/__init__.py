"""One blueprint per area; each numbered endpoint of the spec is one view."""
from app.api import (
    charts,
    compat_domains,
    compatibilities,
    domain_discovery,
    health,
    items,
    oauth,
    orders,
    search,
    sites,
)

AREAS = (health, sites, search, oauth, compat_domains, items, compatibilities, orders, charts,
         domain_discovery)


def register_blueprints(api):
    for module in AREAS:
        api.register_blueprint(module.blp)
