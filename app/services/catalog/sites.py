"""Currencies and sites."""
from app.errors import ApiError, require
from app.models import Currency, Site
from app.services.catalog import queries


def list_currencies():
    return list(Currency.select().order_by(Currency.id))


def get_currency(currency_id):
    return require(Currency, currency_id, "currency_not_found", f"Currency {currency_id} does not exist")


def list_sites():
    return list(Site.select().order_by(Site.id))


def get_site(site_id):
    # Prepared: every site search and fitment search reads its site.
    site = queries.site(site_id)
    if site is None:
        raise ApiError("site_not_found", f"Site {site_id} does not exist")
    return site
