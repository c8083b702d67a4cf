"""B1 and B2: the site search narrowed to the active items that fit a vehicle, each result saying how.

The items that fit are one derived table joined to the search's item query, so `q`, `category`,
sorts, paging and the category counts work unchanged on top of it. It starts from the vehicle's side
(compatibilities of the matching products, by the product index; universal settings, by the same
index's NULL entries), never from the site's items: its cost follows the vehicle, not the catalog.
"""
from dataclasses import dataclass

from peewee import JOIN, SQL, Case, Join, Value, fn

from app.db import is_postgres, param, prepared
from app.errors import ApiError
from app.models import Compatibility, CompatibilityRule, Item, Product
from app.services.catalog import get_site, search_items
from app.services.fitment.vehicles import KnownAttribute, match_vehicles, require_known_attributes, vehicle_domains
from app.services.fitment.visibility import buyer_note, buyer_restrictions

COMPATIBLE, UNDETERMINED = "COMPATIBLE", "UNDETERMINED"
_NULL = SQL("NULL")


@dataclass
class FitmentNarrow:
    """What the catalog search joins (`fits`: item_id, fit_count, note, note_status, restrictions)
    and how a result reads its compatibility; `products` is how many vehicles the buyer means."""
    fits: object
    products: int

    def __post_init__(self):
        # One alias for both queries of a search (the page and the category counts).
        self.fits = self.fits.alias("fit")

    def join(self, query, annotate):
        """The item query read from the fitting items: FROM fit JOIN item. On SQLite a CROSS JOIN,
        which its planner never reorders: without statistics it would rather walk every active item
        of the site (the (site, status) index looks selective) and probe the fitting ones."""
        fit = self.fits
        join_type = JOIN.INNER if is_postgres() else JOIN.CROSS
        query = query.from_(Join(fit, Item, join_type, fit.c.item_id == Item.id))
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
        narrow = FitmentNarrow(_fits_product(require_product(compatible_with)), 1)
    else:
        known = [KnownAttribute(a, v, "compatibility_filter") for a, v in compatibility_filter]
        narrow = _filter_narrow(site_id, known)
    return search_items(site_id, q, limit=limit, offset=offset, sort=sort, category_id=category_id,
                        narrow=narrow)


def require_product(product_id):
    """The product (id and domain), or 404; prepared, as every B1 search and B3 check reads it."""
    sql, params = prepared("fitment_product", lambda: Product.select(Product.id, Product.domain)
                           .where(Product.id == param("id")), {"id": product_id})
    product = next(iter(Product.raw(sql, *params)), None)
    if product is None:
        raise ApiError(404, "product_not_found", f"Product {product_id} does not exist")
    return product


def _filter_narrow(site_id, known):
    # An unknown site (it has no vehicles) is a 404 before the filter can be a 400 for want of
    # them; PostgreSQL refuses NUL in a parameter, which no site id holds.
    if "\x00" in site_id:
        raise ApiError(404, "site_not_found", f"Site {site_id!r} does not exist")
    domains = vehicle_domains(site_id)
    if not domains:
        get_site(site_id)
    require_known_attributes(domains, known)
    matched = match_vehicles(domains, known)
    if matched.total == 0:
        return FitmentNarrow(_nothing(), 1)
    single = matched.single_product_id()
    if single is not None:  # one vehicle meant: its note and restrictions are shown, as in B1
        return FitmentNarrow(_fits_product(require_product(single)), 1)
    return FitmentNarrow(_fits_products(matched), matched.total)


def _universal(vehicle_counts, *extra):
    """The universal settings of items whose domain may load a vehicle domain meant, each with how
    many of the vehicles meant it covers: the product index's NULL entries (a few rows) joined to
    their items and the domain rules, never a scan of a domain's items."""
    holder, rule = Item.alias("holder"), CompatibilityRule.alias("rule")
    if len(vehicle_counts) == 1:
        covered = Value(next(iter(vehicle_counts.values())))
    else:
        covered = Case(rule.compatible_domain, list(vehicle_counts.items()), 0)
    return (Compatibility.select(Compatibility.item.alias("item_id"), fn.SUM(covered).alias("fit_count"), *extra)
            .join(holder, on=(holder.id == Compatibility.item))
            .join(rule, on=((rule.domain == holder.domain) & (rule.type == "EXTENSION")
                            & rule.compatible_domain.in_(list(vehicle_counts))))
            .where(Compatibility.product.is_null(True), Compatibility.universal == True)  # noqa: E712
            .group_by(Compatibility.item))


def _fits_product(product):
    by_product = (Compatibility.select(Compatibility.item.alias("item_id"), SQL("1").alias("fit_count"),
                                       Compatibility.note.alias("note"),
                                       Compatibility.note_status.alias("note_status"),
                                       Compatibility.restrictions.alias("restrictions"))
                  .where(Compatibility.product == product.id))
    return by_product.union_all(_universal({product.domain_id: 1}, _NULL, _NULL, _NULL))


def _fits_products(matched):
    by_product = (Compatibility.select(Compatibility.item.alias("item_id"), fn.COUNT(SQL("1")).alias("fit_count"),
                                       _NULL.alias("note"), _NULL.alias("note_status"),
                                       _NULL.alias("restrictions"))
                  .where(Compatibility.product.in_(matched.product_ids()))
                  .group_by(Compatibility.item))
    return by_product.union_all(_universal(matched.counts, _NULL, _NULL, _NULL))


def _nothing():
    """A derived table of no rows, with the columns the join reads."""
    return (Compatibility.select(Compatibility.item.alias("item_id"), SQL("1").alias("fit_count"),
                                 _NULL.alias("note"), _NULL.alias("note_status"), _NULL.alias("restrictions"))
            .where(SQL("1 = 0")))
