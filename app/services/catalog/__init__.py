"""The catalog: currencies and sites, a site's item search, the compatibility rules of its domains
(endpoint 1), restriction values (7) and the category predictor (27)."""
from app.services.catalog.domains import domain_dump, restriction_values
from app.services.catalog.predictor import predict
from app.services.catalog.search import search_items
from app.services.catalog.sites import get_currency, get_site, list_currencies, list_sites

__all__ = ["domain_dump", "get_currency", "get_site", "list_currencies", "list_sites", "predict",
           "restriction_values", "search_items"]
