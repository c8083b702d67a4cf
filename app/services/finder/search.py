"""F3: the child products of a domain that match every known attribute, a page of them sorted by
one attribute's value name (or by id), with the exact total.

The total comes from the stored counts when at most one attribute is known (a value's count, or
the domain's child products) once the known attributes the smallest one implies are dropped
(matching.narrowed), or from a stored pair count when two are left; otherwise it is counted over
the smallest known attribute's products. The page is read from those products too: their index
entries come in the order of the products' keys, which is the ids' order where the import could keep
it so (app/services/row_keys/order.py); then a single known value sorted by id walks that index up
to the page's end, whatever the catalog. Where it is not, each product's id is looked up and all of
them sorted: a page costs what the smallest known attribute's products do.
"""

from app.errors import ApiError
from app.models.finder import FinderDomain
from app.services.finder import queries
from app.services.finder.domains import check_known, parse_known, require_attribute, require_domain_sizing
from app.services.finder.matching import narrowed, sized_from, stored_total
from app.services.finder.products import products_by_key
from app.services.paging import Page
from app.services.row_keys.order import keys_follow_ids


def search_products(domain_id, site_id, known, limit, offset, sort=None):
    known = parse_known(known)
    domain, sizes, pairs = require_domain_sizing(domain_id, known)
    if site_id != domain.site_id:
        raise ApiError("site_mismatch", f"Domain {domain.id} is of site {domain.site_id}, not {site_id}",
                       [{"code": "site_mismatch", "message": f"site_id must be {domain.site_id}",
                         "field": "site_id"}])
    known = sized_from(check_known(domain, known), sizes)
    if sort:
        require_attribute(domain, sort["attribute_id"], "sort.attribute_id")
    if (known := narrowed(known, pairs)) is None:
        return Page([], 0, offset, limit)  # the stored pair counts show that no product matches them all
    total = _stored_total(domain.id, known)
    if total is None:
        # Counted by the page's own query (a window over the same join), or alone past the last page.
        matching = queries.Matching(domain.id, known[0], known[1:])
        rows = queries.page(matching, sort, limit, offset, counted=True, by_key=keys_follow_ids(domain.id))
        total = rows[0][1] if rows else queries.count(matching)
    else:
        rows = _page(domain.id, known, sort, limit, offset) if total > offset else []
    return Page(products_by_key([r[0] for r in rows], domain.attribute_names()), total, offset, limit)


def _stored_total(domain_id, known):
    """The total from the stored counts, when at most one attribute is known, or two whose overlap
    is stored (else None)."""
    if not known:
        row = FinderDomain.get_or_none(FinderDomain.domain_id == domain_id)
        return row.child_products if row else 0
    return stored_total(known)


def _page(domain_id, known, sort, limit, offset):
    if not known:  # every child product of the domain
        return queries.domain_page(domain_id, sort, limit, offset)
    return queries.page(queries.Matching(domain_id, known[0], known[1:]), sort, limit, offset,
                        by_key=keys_follow_ids(domain_id))
