"""The vehicle finder (extensions.md F): a domain and its attributes in refinement order (F1), the
top values of one attribute given the known ones (F2), a search of child products (F3) and one
product (F4). Counts come from what the importer stores (app/models/finder.py)."""
from app.services.finder.domains import get_domain
from app.services.finder.facets import refresh_facets
from app.services.finder.products import get_product
from app.services.finder.search import search_products
from app.services.finder.top_values import top_values

__all__ = ["get_domain", "get_product", "refresh_facets", "search_products", "top_values"]
