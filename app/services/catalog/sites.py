"""Currencies and sites."""
from app.errors import not_found
from app.models import Currency, Site


def list_currencies():
    return list(Currency.select().order_by(Currency.id))


def get_currency(currency_id):
    currency = Currency.get_or_none(Currency.id == currency_id)
    if currency is None:
        raise not_found("currency_not_found", f"Currency {currency_id} does not exist")
    return currency


def list_sites():
    return list(Site.select().order_by(Site.id))


def get_site(site_id):
    site = Site.get_or_none(Site.id == site_id)
    if site is None:
        raise not_found("site_not_found", f"Site {site_id} does not exist")
    return site
