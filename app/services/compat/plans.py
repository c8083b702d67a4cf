"""Turning the product, group and family elements of a request into the products they name,
each with its note and restrictions, with every check made before anything is written."""
import json
from dataclasses import dataclass

from app.errors import ApiError
from app.models import Product
from app.services.compat.families import describe, expand_family, require_domain

UNIVERSAL_MESSAGE = ("Invalid arguments for a specific request, check details to satisfy validations: "
                     "at least one of products, products_groups, products_families or universal must be "
                     "specified, and if universal no products can be specified")


@dataclass
class Entry:
    product_id: str
    domain_id: str
    creation_source: str
    note: str | None
    restrictions: list | None
    product_key: int  # read with the checks of the product, or by the family's selection


def invalid_arguments(detail):
    raise ApiError("invalid_arguments", UNIVERSAL_MESSAGE,
                   [{"code": "invalid_arguments", "message": detail, "field": "universal"}])


def check_families_limit(count, limits):
    if count > limits.max_families:
        raise ApiError("too_many_families",
                       f"{count} product families in the request, at most {limits.max_families} are allowed")


def check_products_limit(count, limits, what="The request names"):
    if count > limits.max_products:
        raise ApiError("too_many_products",
                       f"{what} more than {limits.max_products} products (families included); "
                       "split it into several requests or narrow the families (see endpoint 2)")


def resolve_products(ctx, product_ids, where):
    """{product id: Product} for ids that exist, are of the item's site, are child products and
    are of a domain the item's domain is compatible with."""
    ids = list(dict.fromkeys(product_ids))
    products = {p.id: p for p in Product.select(Product.id, Product.key, Product.domain, Product.site,
                                                Product.parent_id).where(Product.id.in_(ids))} if ids else {}
    missing = [pid for pid in ids if pid not in products]
    if missing:
        raise ApiError("product_not_found", f"{where}: product {', '.join(missing)} does not exist")
    other_site = [pid for pid in ids if products[pid].site_id != ctx.item.site_id]
    if other_site:
        raise ApiError("site_mismatch", f"{where}: product {', '.join(other_site)} is not of site "
                       f"{ctx.item.site_id}, the item's site")
    parents = [pid for pid in ids if not products[pid].parent_id]
    if parents:
        raise ApiError("not_child_product",
                       f"{where}: product {', '.join(parents)} is a parent product; only child products "
                       "(vehicle versions) can be made compatible")
    for pid in ids:
        ctx.category_rule(products[pid].domain_id, f"{where} ({pid})")
    return products


def family_domain(ctx, family, where):
    """404 for an unknown domain, 400 for one of another site."""
    domain = ctx.reads.get(("domain", family["domain_id"]), lambda: require_domain(family["domain_id"]))
    if domain.site_id != ctx.item.site_id:
        raise ApiError("site_mismatch", f"{where}: domain {domain.id} is not of site {ctx.item.site_id}, "
                       "the item's site")
    return domain


def family_products(ctx, family, where, limits):
    """{product id: key} of the products a family selects; 404/400 for its domain, 400 when it
    selects none or more than the per-request limit."""
    domain = family_domain(ctx, family, where)
    key = ("family", domain.id, json.dumps(family["attributes"], sort_keys=True), limits.max_products)
    selected = ctx.reads.get(key, lambda: expand_family(domain.id, family["attributes"], limits.max_products))
    if not selected:
        raise ApiError("family_without_products",
                       f"{where}: the family {describe(family)} selects no product; check its attribute values")
    check_products_limit(len(selected), limits, f"{where}: the family {describe(family)} selects")
    return selected


def _coded(ctx, restrictions, domain_id):
    return ctx.restrictions.with_codes(restrictions, domain_id) if restrictions else []


def plan_create(ctx, section, limits, prefix=""):
    """({product id: Entry} in request order, echo of the section's elements). The first
    element that names a product decides its note and restrictions."""
    entries, echo = {}, {}
    explicit = [(f"{prefix}products.{i}", [el["id"]], el) for i, el in enumerate(section.get("products") or ())]
    explicit += [(f"{prefix}products_group.{i}", el["ids"], el)
                 for i, el in enumerate(section.get("products_group") or ())]
    all_ids = list(dict.fromkeys(pid for _, ids, _ in explicit for pid in ids))
    check_products_limit(len(all_ids), limits)
    products = resolve_products(ctx, all_ids, f"{prefix}products") if all_ids else {}
    for where, ids, element in explicit:
        checked = {}
        for pid in ids:
            domain_id = products[pid].domain_id
            if domain_id not in checked:
                checked[domain_id] = ctx.details(element, domain_id, where)
            note, restrictions = checked[domain_id]
            entries.setdefault(pid, Entry(pid, domain_id, element["creation_source"], note, restrictions,
                                          products[pid].key))
        first_domain = products[ids[0]].domain_id
        key = where.rsplit(".", 2)[-2]
        echo.setdefault(key, []).append(
            _echo_element(element, _coded(ctx, checked[first_domain][1], first_domain)))
    for i, family in enumerate(section.get("products_families") or ()):
        where = f"{prefix}products_families.{i}"
        family_domain(ctx, family, where)
        note, restrictions = ctx.details(family, family["domain_id"], where)
        for pid, product_key in family_products(ctx, family, where, limits).items():
            entries.setdefault(pid, Entry(pid, family["domain_id"], family["creation_source"], note, restrictions,
                                          product_key))
        check_products_limit(len(entries), limits)
        echo.setdefault("products_families", []).append(
            _echo_element(family, _coded(ctx, restrictions, family["domain_id"])))
    return entries, echo


def _echo_element(element, coded):
    out = {k: v for k, v in element.items() if k not in ("note", "restrictions")}
    if "note" in element:
        out["note"] = element["note"]
    if "restrictions" in element:
        out["restrictions"] = coded
    return out
