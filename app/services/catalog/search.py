"""Item search of a site: full-text match over active items, paging, sorts and the category filter."""
from dataclasses import dataclass

from peewee import fn

from app.errors import bad_request, not_found
from app.models import Category, Item, search_index
from app.services.catalog.sites import get_site
from app.services.paging import Page

SORTS = ("relevance", "price_asc", "price_desc")
_SORT_NAMES = {
    "es": {"relevance": "Más relevantes", "price_asc": "Menor precio", "price_desc": "Mayor precio"},
    "pt": {"relevance": "Mais relevantes", "price_asc": "Menor preço", "price_desc": "Maior preço"},
}
_CATEGORY_FILTER_NAMES = {"es": "Categorías", "pt": "Categorias"}


@dataclass(frozen=True)
class SearchPage(Page):
    """A page of item rows, with the marketplace search's other fields."""

    site_id: str
    query: str
    sort: dict
    available_sorts: list
    filters: list
    available_filters: list


def search_items(site_id, q, *, limit, offset, sort="relevance", category_id=None):
    """One page of the site's active items whose titles hold every word of `q`."""
    if "\x00" in site_id:  # PostgreSQL refuses NUL in a string parameter, and no site id holds one
        raise not_found("site_not_found", f"Site {site_id!r} does not exist")
    site = get_site(site_id)
    language = site.language if site.language in _SORT_NAMES else "es"
    category = _category_of_site(site.id, category_id) if category_id else None
    words = search_index.query_words(q)
    counts = _category_counts(site.id, words) if words else []
    if category is not None:
        total = next((c["results"] for c in counts if c["id"] == category.id), 0)
    else:
        total = sum(c["results"] for c in counts)
    results = _page(site.id, words, category, sort, limit, offset) if total and offset < total else []
    return SearchPage(
        results, total, offset, limit, site_id=site.id, query=q, sort=_sort(sort, language),
        available_sorts=[_sort(s, language) for s in SORTS if s != sort],
        filters=[_category_filter(language, [{"id": category.id, "name": category.name}])] if category else [],
        # As on the marketplace, an applied filter moves to `filters` and leaves `available_filters`.
        available_filters=[_category_filter(language, counts)] if counts and category is None else [])


def _category_of_site(site_id, category_id):
    category = Category.get_or_none((Category.id == category_id) & (Category.site == site_id))
    if category is None:
        raise bad_request("invalid_category", f"Category {category_id} does not exist in site {site_id}; "
                          "use an id from available_filters",
                          [{"code": "invalid_category", "message": "unknown category for this site",
                            "field": "category"}])
    return category


def _matching(site_id, words, *columns):
    query = Item.select(*columns)
    query, rank = search_index.match(query, Item, words)
    return query.where((Item.site == site_id) & (Item.status == "active")), rank


def _category_counts(site_id, words):
    """Results per category of the whole matching set, one GROUP BY."""
    count = fn.COUNT(Item.id)
    query, _ = _matching(site_id, words, Item.category, count.alias("results"))
    rows = query.group_by(Item.category).order_by(count.desc(), Item.category).tuples()
    counts = [{"id": category_id, "results": n} for category_id, n in rows]
    names = dict(Category.select(Category.id, Category.name)
                 .where(Category.id.in_([c["id"] for c in counts])).tuples()) if counts else {}
    for entry in counts:
        entry["name"] = names.get(entry["id"])
    return counts


def _page(site_id, words, category, sort, limit, offset):
    query, rank = _matching(site_id, words, Item.id, Item.site, Item.title, Item.price, Item.currency_id,
                            Item.category, Item.domain, Item.seller, Item.official_store_id,
                            Item.catalog_product_id, Item.catalog_listing, Item.status)
    if category is not None:
        query = query.where(Item.category == category.id)
    if sort == "price_asc":
        order = (Item.price.asc(nulls="LAST"), rank, Item.id)
    elif sort == "price_desc":
        order = (Item.price.desc(nulls="LAST"), rank, Item.id)
    else:
        order = (rank, Item.id)
    return list(query.order_by(*order).limit(limit).offset(offset))


def _sort(sort_id, language):
    return {"id": sort_id, "name": _SORT_NAMES[language][sort_id]}


def _category_filter(language, values):
    return {"id": "category", "name": _CATEGORY_FILTER_NAMES[language], "type": "text", "values": values}
