"""The buyer fitment's statements, prepared (app.prepared_sql.prepared): compiled by peewee once per shape and
run with each request's values.

The fitting items (`fits_of_product`, `fits_of_products`) are a derived table the catalog search
joins twice (its page and its category counts): compiling that union of joins was most of a
search's own time, so it is compiled once per shape and handed to the search as SQL text. It names
its items by their keys, as the compatibilities do (item_key): the search joins the item by its key
and reads its id there, so no part of the table looks an item up only to name it.
"""
from peewee import JOIN, SCOPE_SOURCE, SQL, Case, Source, fn

from app.models import Compatibility, CompatibilityRule, Domain, Item, Product
from app.prepared_sql import execute_prepared, param, prepared
from app.services.finder import queries as finder_queries

_NULL = SQL("NULL")


class Derived(Source):
    """A derived table given as compiled SQL and its params: `FROM (sql) AS alias`, columns `.c.name`."""

    def __init__(self, sql, params, alias=None):
        super().__init__(alias=alias)
        self.sql_text, self.params = sql, params

    def __sql__(self, ctx):
        if ctx.scope == SCOPE_SOURCE:
            ctx.literal("(").sql(SQL(self.sql_text, self.params)).literal(")")
            return self.apply_alias(ctx)
        return self.apply_column(ctx)


def product(product_id):
    """(id, domain id, key) of a product, or None."""
    return execute_prepared("fitment_product", lambda: Product.select(Product.id, Product.domain, Product.key).where(
        Product.id == param("id")), {"id": product_id}).fetchone()


def vehicle_domains(site_id):
    """[(domain id, attributes as stored)] of the site's domains some item domain may be made
    compatible with, by id."""
    rows = execute_prepared("fitment_vehicle_domains", lambda: (
        Domain.select(Domain.id, Domain.attributes)
        .where(Domain.site == param("site"),
               Domain.id.in_(CompatibilityRule.select(CompatibilityRule.compatible_domain)))
        .order_by(Domain.id)), {"site": site_id}).fetchall()
    return [(domain_id, Domain.attributes.python_value(attributes)) for domain_id, attributes in rows]


def _universal(n_domains, *extra):
    """The universal settings of items whose domain may load one of the vehicle domains meant
    (params d0…, each covering n0… of the vehicles): the product index's NULL entries (a few rows)
    joined to their items and the domain rules, never a scan of a domain's items."""
    holder, rule = Item.alias("holder"), CompatibilityRule.alias("rule")
    domains = [param(f"d{n}") for n in range(n_domains)]
    if n_domains == 1:
        covered = param("n0")
    else:
        covered = Case(rule.compatible_domain, [(d, param(f"n{n}")) for n, d in enumerate(domains)], 0)
    return (Compatibility.select(Compatibility.item.alias("item_key"), fn.SUM(covered).alias("fit_count"), *extra)
            .join(holder, on=(holder.key == Compatibility.item))
            .join(rule, on=((rule.domain == holder.domain) & (rule.type == "EXTENSION")
                            & rule.compatible_domain.in_(domains)))
            .where(Compatibility.product.is_null(True), Compatibility.universal == True)  # noqa: E712
            .group_by(Compatibility.item))


def _fits_product():
    by_product = (Compatibility.select(Compatibility.item.alias("item_key"), SQL("1").alias("fit_count"),
                                       Compatibility.note.alias("note"),
                                       Compatibility.note_status.alias("note_status"),
                                       Compatibility.restrictions.alias("restrictions"))
                  .where(Compatibility.product == param("product_key")))
    return by_product.union_all(_universal(1, _NULL, _NULL, _NULL))


def fits_of_product(vehicle):
    """The items that fit one vehicle, a product's row as `product` reads it (item_key, fit_count 1,
    note, note_status, restrictions)."""
    _, domain_id, product_key = vehicle
    return Derived(*prepared("fitment_fits_product", _fits_product,
                             {"product_key": product_key, "d0": domain_id, "n0": 1}))


def fits_of_products(matched):
    """The items that fit some of the vehicles `matched` means (a MatchedVehicles), by key, each with
    how many (fit_count). The shape is the finder's matching of each vehicle domain, whose products
    come out by key as the compatibilities name them: compared as they are, no product read."""
    matchings = matched.by_domain()
    shapes, counts = tuple(m.shape for m in matchings), sorted(matched.counts.items())

    def build():
        keys = finder_queries.product_keys_of_shapes(shapes)
        by_product = (Compatibility.select(Compatibility.item.alias("item_key"),
                                           fn.COUNT(SQL("1")).alias("fit_count"), _NULL.alias("note"),
                                           _NULL.alias("note_status"), _NULL.alias("restrictions"))
                      .where(Compatibility.product.in_(keys))
                      .group_by(Compatibility.item))
        return by_product.union_all(_universal(len(counts), _NULL, _NULL, _NULL))

    named = finder_queries.product_keys_of_values(matchings)
    for n, (domain_id, count) in enumerate(counts):
        named[f"d{n}"], named[f"n{n}"] = domain_id, count
    return Derived(*prepared(("fitment_fits_products", shapes), build, named))


def no_fits():
    """A derived table of no rows, with the columns the search reads."""
    return Derived(*prepared("fitment_no_fits", lambda: (
        Compatibility.select(Compatibility.item.alias("item_key"), SQL("1").alias("fit_count"),
                             _NULL.alias("note"), _NULL.alias("note_status"), _NULL.alias("restrictions"))
        .where(SQL("1 = 0"))), {}))


def _check_item_product():
    """The item (its site), the product, the item's rule towards the product's domain, and the
    item's compatibility with it or its universal setting: the item read and the check in one round
    trip, each join a unique-index lookup."""
    rule, by_product, universal = CompatibilityRule.alias("r"), Compatibility.alias("c"), Compatibility.alias("u")
    return (Item
            .select(Item.site, Product.id.alias("product_id"), Product.site.alias("product_site"),
                    rule.id.alias("rule_id"), by_product.id.alias("compat_id"),
                    by_product.note, by_product.note_status, by_product.restrictions,
                    universal.id.alias("universal_id"))
            .join(Product, JOIN.LEFT_OUTER, on=(Product.id == param("product")))
            .join(rule, JOIN.LEFT_OUTER,
                  on=((rule.domain == Item.domain) & (rule.compatible_domain == Product.domain)
                      & (rule.type == "EXTENSION")), src=Item)
            .join(by_product, JOIN.LEFT_OUTER, on=((by_product.item == Item.key)
                                                   & (by_product.product == Product.key)), src=Item)
            .join(universal, JOIN.LEFT_OUTER, on=((universal.item == Item.key)
                                                  & universal.product.is_null(True)
                                                  & (universal.universal == True)), src=Item)  # noqa: E712
            .where(Item.id == param("item")))


def check_item_product(item_id, product_id):
    """(item site, product id or None, product site, rule id, compatibility id, note, note status,
    restrictions, universal id), or None when there is no such item."""
    return execute_prepared("fitment_check_item_product", _check_item_product,
                            {"item": item_id, "product": product_id}).fetchone()

