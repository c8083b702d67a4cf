"""One blueprint per area; each numbered endpoint of the spec is one view."""
from app.api import oauth, sites


def register_blueprints(api):
    for module in (sites, oauth):
        api.register_blueprint(module.blp)
