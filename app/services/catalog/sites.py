"""Currencies and sites."""
from app.errors import require
from app.models import Currency, Site


def list_currencies():
    return list(Currency.select().order_by(Currency.id))


def get_currency(currency_id):
    return require(Currency, currency_id, "currency_not_found", f"Currency {currency_id} does not exist")


def list_sites():
    return list(Site.select().order_by(Site.id))


def get_site(site_id):
    return require(Site, site_id, "site_not_found", f"Site {site_id} does not exist")
