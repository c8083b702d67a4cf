"""B1 and B2: the site search narrowed to the active items that fit a vehicle, each result saying how.

The items that fit are one derived table joined to the search's item query, so `q`, `category`,
sorts, paging and the category counts work unchanged on top of it. It starts from the vehicle's side
(compatibilities of the matching products, by the product index; universal settings, by the same
index's NULL entries), never from the site's items: its cost follows the vehicle, not the catalog.
"""
from dataclasses import dataclass, replace

from peewee import JOIN, Join

from app.db import is_postgres
from app.errors import ApiError
from app.models import Item
from app.prepared_sql import Param
from app.services.catalog import get_site, search_items
from app.services.finder.domains import Known
from app.services.fitment import queries
from app.services.fitment.vehicles import match_vehicles, require_known_attributes, vehicle_domains
from app.services.fitment.visibility import buyer_note, buyer_restrictions

COMPATIBLE, UNDETERMINED = "COMPATIBLE", "UNDETERMINED"


@dataclass
class FitmentNarrow:
    """What the catalog search joins (`fits`: item_key, fit_count, note, note_status, restrictions)
    and how a result reads its compatibility; `products` is how many vehicles the buyer means."""
    fits: object
    products: int

    def __post_init__(self):
        # One alias for both queries of a search (the page and the category counts).
        self.fits = self.fits.alias("fit")

    @property
    def shape(self):
        """What the catalog search keys its prepared statements by: the derived table's SQL."""
        return self.fits.sql_text

    @property
    def values(self):
        return {f"fit{n}": value for n, value in enumerate(self.fits.params)}

    def placeholders(self):
        """This narrow with params in place of its values (named as in `values`), to be prepared."""
        names = [Param(name) for name in self.values]
        return replace(self, fits=queries.Derived(self.fits.sql_text, names))

    def join(self, query, annotate):
        """The item query read from the fitting items: FROM fit JOIN item, by its key. On SQLite a CROSS JOIN,
        which its planner never reorders: without statistics it would rather walk every active item
        of the site (the (site, status) index looks selective) and probe the fitting ones."""
        fit = self.fits
        join_type = JOIN.INNER if is_postgres() else JOIN.CROSS
        query = query.from_(Join(fit, Item, join_type, fit.c.item_key == Item.key))
        if annotate:
            query = query.select_extend(fit.c.fit_count.alias("fit_count"), fit.c.note.alias("fit_note"),
                                        fit.c.note_status.alias("fit_note_status"),
                                        fit.c.restrictions.alias("fit_restrictions"))
        return query

    def rank(self):
        # Without words to rank by, items that fit every vehicle meant come first.
        return self.fits.c.fit_count.desc()

    def describe(self, item):
        status = COMPATIBLE if item.fit_count >= self.products else UNDETERMINED
        compatibility = {"status": status}
        note = buyer_note(item.fit_note, item.fit_note_status)
        if note:
            compatibility["note"] = note
        restrictions = buyer_restrictions(item.fit_restrictions)
        if restrictions:
            compatibility["restrictions"] = restrictions
        return compatibility


def search_fitting_items(site_id, q, *, limit, offset, sort, category_id=None, compatible_with=None,
                         compatibility_filter=None):
    """B1 (`compatible_with`, a product id) or B2 (`compatibility_filter`, [(attribute id, value id)])."""
    if compatible_with is not None:
        narrow = FitmentNarrow(queries.fits_of_product(require_product(compatible_with)), 1)
    else:
        known = [Known(a, (v,), "compatibility_filter") for a, v in compatibility_filter]
        narrow = _filter_narrow(site_id, known)
    return search_items(site_id, q, limit=limit, offset=offset, sort=sort, category_id=category_id,
                        narrow=narrow)


def require_product(product_id):
    """(id, domain id, key) of the product, or 404; every B1 search and B3 check reads it."""
    row = queries.product(product_id)
    if row is None:
        raise ApiError("product_not_found", f"Product {product_id} does not exist")
    return row


def _filter_narrow(site_id, known):
    # An unknown site (it has no vehicles) is a 404 before the filter can be a 400 for want of
    # them; PostgreSQL refuses NUL in a parameter, which no site id holds.
    if "\x00" in site_id:
        raise ApiError("site_not_found", f"Site {site_id!r} does not exist")
    domains = vehicle_domains(site_id)
    if not domains:
        get_site(site_id)
    require_known_attributes(domains, known)
    matched = match_vehicles(domains, known)
    if matched.total == 0:
        return FitmentNarrow(queries.no_fits(), 1)
    single = matched.single_product()
    if single is not None:  # one vehicle meant: its note and restrictions are shown, as in B1
        return FitmentNarrow(queries.fits_of_product(single), 1)
    return FitmentNarrow(queries.fits_of_products(matched), matched.total)
