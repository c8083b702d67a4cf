"""Item search of a site: full-text match over active items, paging, sorts and the category filter.

A `narrow` (the buyer fitment of app/services/fitment) keeps only the items it joins and says for
each result how it fits; with a narrow, `q` may be empty."""
from contextlib import nullcontext
from dataclasses import dataclass

from peewee import fn

from app.errors import ApiError
from app.models import Category, Item, search_index
from app.services.catalog import queries
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


def search_items(site_id, q, *, limit, offset, sort="relevance", category_id=None, narrow=None):
    """One page of the site's active items whose titles hold every word of `q` (and that `narrow` keeps)."""
    if "\x00" in site_id:  # PostgreSQL refuses NUL in a string parameter, and no site id holds one
        raise ApiError("site_not_found", f"Site {site_id!r} does not exist")
    site = get_site(site_id)
    language = site.language if site.language in _SORT_NAMES else "es"
    category = _category_of_site(site.id, category_id) if category_id else None
    words = search_index.query_words(q or "")
    with queries.narrowed_statements() if narrow is not None and not words else nullcontext():
        counts = _category_counts(site.id, words, narrow) if words or narrow else []
        if category is not None:
            total = next((c["results"] for c in counts if c["id"] == category.id), 0)
        else:
            total = sum(c["results"] for c in counts)
        results = _page(site.id, words, narrow, category, sort, limit, offset) if total and offset < total else []
    return SearchPage(
        results, total, offset, limit, site_id=site.id, query=q, sort=_sort(sort, language),
        available_sorts=[_sort(s, language) for s in SORTS if s != sort],
        filters=[_category_filter(language, [{"id": category.id, "name": category.name}])] if category else [],
        # As on the marketplace, an applied filter moves to `filters` and leaves `available_filters`.
        available_filters=[_category_filter(language, counts)] if counts and category is None else [])


def _category_of_site(site_id, category_id):
    category = Category.get_or_none((Category.id == category_id) & (Category.site == site_id))
    if category is None:
        raise ApiError("invalid_category", f"Category {category_id} does not exist in site {site_id}; "
                          "use an id from available_filters",
                          [{"code": "invalid_category", "message": "unknown category for this site",
                            "field": "category"}])
    return category


def _matching(site, words, narrow, *columns, annotate=False):
    query, rank = Item.select(*columns), None
    if narrow is not None:  # first: it may set the FROM clause the word match then joins to
        query = narrow.join(query, annotate)
        rank = narrow.rank()
    if words:
        query, rank = search_index.match(query, Item, words)
    return query.where((Item.site == site) & (Item.status == "active")), rank


def _category_counts(site_id, words, narrow):
    """Results per category of the whole matching set, one GROUP BY."""
    if narrow is not None and not words:
        rows = queries.narrowed_counts(narrow, lambda site, narrow: _counts_query(site, (), narrow), site_id)
    else:
        rows = _counts_query(site_id, words, narrow).tuples()
    return [{"id": category_id, "results": n, "name": name} for category_id, n, name in rows]


def _counts_query(site, words, narrow):
    count = fn.COUNT(Item.id)
    # The name by a subquery per category (the GROUP BY's few rows), not a join per matching item.
    name = Category.select(Category.name).where(Category.id == Item.category)
    query, _ = _matching(site, words, narrow, Item.category, count.alias("results"), name.alias("name"))
    return query.group_by(Item.category).order_by(count.desc(), Item.category)


def _page(site_id, words, narrow, category, sort, limit, offset):
    if narrow is not None and not words:
        # Prepared: without words a narrowed search's shape is the narrow's, the sort and the category filter.
        rows = queries.narrowed_page(narrow, lambda site, narrow, category_id, limit, offset: _page_query(
            site, (), narrow, category_id, sort, limit, offset), site_id, category and category.id, sort,
            limit, offset)
    else:
        rows = list(_page_query(site_id, words, narrow, category and category.id, sort, limit, offset).objects())
    if narrow is not None:
        for item in rows:
            item.compatibility = narrow.describe(item)
    return rows


def _page_query(site, words, narrow, category_id, sort, limit, offset):
    """The page's SELECT; `site`, `category_id`, `limit` and `offset` are values or params."""
    query, rank = _matching(site, words, narrow, Item.id, Item.site, Item.title, Item.price, Item.currency_id,
                            Item.category, Item.domain, Item.seller, Item.official_store_id,
                            Item.catalog_product_id, Item.catalog_listing, Item.status, annotate=True)
    if category_id is not None:
        query = query.where(Item.category == category_id)
    if sort == "price_asc":
        order = (Item.price.asc(nulls="LAST"), rank, Item.id)
    elif sort == "price_desc":
        order = (Item.price.desc(nulls="LAST"), rank, Item.id)
    else:
        order = (rank, Item.id)
    # objects(): a narrow's columns come from its derived table and land on the item, as its own do.
    return query.order_by(*order).limit(limit).offset(offset)


def _sort(sort_id, language):
    return {"id": sort_id, "name": _SORT_NAMES[language][sort_id]}


def _category_filter(language, values):
    return {"id": "category", "name": _CATEGORY_FILTER_NAMES[language], "type": "text", "values": values}
