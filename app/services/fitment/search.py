"""B1 and B2: the site search narrowed to the active items that fit a vehicle, each result saying how.

The items that fit are one derived table joined to the search's item query, so `q`, `category`,
sorts, paging and the category counts work unchanged on top of it. It starts from the vehicle's side
(compatibilities of the matching products, by the product index; universal settings, by the same
index's NULL entries), never from the site's items: its cost follows the vehicle, not the catalog.
"""
from dataclasses import dataclass

from peewee import SQL, Case, fn

from app.errors import ApiError
from app.models import Compatibility, CompatibilityRule, Item, Product
from app.services.catalog import search_items
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
        fit = self.fits
        query = query.join(fit, on=(fit.c.item_id == Item.id))
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
    product = Product.get_or_none(Product.id == product_id)
    if product is None:
        raise ApiError(404, "product_not_found", f"Product {product_id} does not exist")
    return product


def _filter_narrow(site_id, known):
    domains = vehicle_domains(site_id) if "\x00" not in site_id else {}
    require_known_attributes(domains, known)
    matched = match_vehicles(domains, known)
    if matched.total == 0:
        return FitmentNarrow(_nothing(), 1)
    single = matched.single_product_id()
    if single is not None:  # one vehicle meant: its note and restrictions are shown, as in B1
        return FitmentNarrow(_fits_product(Product.get_by_id(single)), 1)
    return FitmentNarrow(_fits_products(matched), matched.total)


def universal_item_domains(vehicle_counts):
    """{item domain: vehicles meant that its universal setting covers} (the domains it may load)."""
    rules = (CompatibilityRule.select(CompatibilityRule.domain, CompatibilityRule.compatible_domain)
             .where(CompatibilityRule.compatible_domain.in_(list(vehicle_counts)),
                    CompatibilityRule.type == "EXTENSION"))
    covered = {}
    for rule in rules:
        covered[rule.domain_id] = covered.get(rule.domain_id, 0) + vehicle_counts[rule.compatible_domain_id]
    return {domain: n for domain, n in covered.items() if n}


def _universal(covered, *extra):
    """The universal settings of items whose domain covers the vehicle: the product index's NULL
    entries (a few rows) joined to their items, never a scan of a domain's items."""
    holder = Item.alias("holder")
    fit_count = Case(holder.domain, list(covered.items()), 0)
    return (Compatibility.select(Compatibility.item.alias("item_id"), fit_count.alias("fit_count"), *extra)
            .join(holder, on=(holder.id == Compatibility.item))
            .where(Compatibility.product.is_null(True), Compatibility.universal == True,  # noqa: E712
                   holder.domain.in_(list(covered))))


def _fits_product(product):
    by_product = (Compatibility.select(Compatibility.item.alias("item_id"), SQL("1").alias("fit_count"),
                                       Compatibility.note.alias("note"),
                                       Compatibility.note_status.alias("note_status"),
                                       Compatibility.restrictions.alias("restrictions"))
                  .where(Compatibility.product == product.id))
    covered = universal_item_domains({product.domain_id: 1})
    if not covered:
        return by_product
    return by_product.union_all(_universal(covered, _NULL, _NULL, _NULL))


def _fits_products(matched):
    by_product = (Compatibility.select(Compatibility.item.alias("item_id"), fn.COUNT(SQL("1")).alias("fit_count"),
                                       _NULL.alias("note"), _NULL.alias("note_status"),
                                       _NULL.alias("restrictions"))
                  .where(Compatibility.product.in_(matched.product_ids()))
                  .group_by(Compatibility.item))
    covered = universal_item_domains({d: n for d, n in matched.counts.items() if n})
    if not covered:
        return by_product
    return by_product.union_all(_universal(covered, _NULL, _NULL, _NULL))


def _nothing():
    """A derived table of no rows, with the columns the join reads."""
    return (Compatibility.select(Compatibility.item.alias("item_id"), SQL("1").alias("fit_count"),
                                 _NULL.alias("note"), _NULL.alias("note_status"), _NULL.alias("restrictions"))
            .where(SQL("1 = 0")))
