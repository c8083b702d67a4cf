"""The catalog's hot statements, prepared (app.prepared_sql.prepared): compiled by peewee once per shape, not
on each request: the lookups every category prediction runs, the site read, and a narrowed search's
(buyer fitment) counts and page, whose derived table and joins were most of its own time.

The narrowed search's two statements run inside `narrowed_statements()`, by their generic plans."""
from app.models import CatalogVersion, Item, Site
from app.prepared_sql import execute_prepared, generic_plans, param, prepared


def site_catalog_version(site_id):
    """(site id, catalog version) in one statement, or None when the site does not exist: the site
    check and the predictor's staleness check of a prediction in one round trip. The version is the
    one the importer bumps when it writes titles, domains, categories or terms; None before the
    first import."""
    return execute_prepared("site_catalog_version", lambda: Site.select(
        Site.id, CatalogVersion.select(CatalogVersion.version).where(CatalogVersion.id == 1).alias("version"))
        .where(Site.id == param("site")), {"site": site_id}).fetchone()


def site(site_id):
    """The site, or None."""
    sql, params = prepared("catalog_site", lambda: Site.select().where(Site.id == param("id")), {"id": site_id})
    return next(iter(Site.raw(sql, *params)), None)


def narrowed_statements():
    """The block a narrowed search's counts and page run in, one for both: by their generic plans
    (app.prepared_sql.generic_plans), since the fitting items are probes of the compatibilities' and
    attributes' indexes whatever the vehicle, and planning such a union of joins on each run took
    longer than running it."""
    return generic_plans()


def narrowed_counts(narrow, build, site_id):
    """(category id, results) rows of a search without words that `narrow` keeps: `build(site,
    narrow)` is the search's GROUP BY, prepared per shape of the narrow (its `shape`, its `values`
    and `placeholders()`, a copy of it whose values are params). Inside `narrowed_statements()`."""
    return execute_prepared(("search_narrowed_counts", narrow.shape),
                            lambda: build(param("site"), narrow.placeholders()),
                            {"site": site_id, **narrow.values}).fetchall()


def narrowed_page(narrow, build, site_id, category_id, sort, limit, offset):
    """The items of one page of a search without words that `narrow` keeps, with the narrow's
    columns: `build(site, narrow, category_id, limit, offset)` is the page's SELECT (category_id
    None: no category filter), prepared per shape of the narrow, sort and filter. Inside
    `narrowed_statements()`."""
    filtered = category_id is not None
    sql, params = prepared(("search_narrowed_page", narrow.shape, sort, filtered), lambda: build(
        param("site"), narrow.placeholders(), param("category") if filtered else None, param("limit"),
        param("offset")), {"site": site_id, "category": category_id, "limit": limit, "offset": offset,
                           **narrow.values})
    return list(Item.raw(sql, *params))
