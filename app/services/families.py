"""Product families: the child products of a domain whose attributes match every given value.

A family is answered from the ProductAttribute indexes: the first attribute selects rows by
(domain_id, is_child, attribute_id, value), each further attribute is a join on the same
product through the (product, attribute_id) index. No Python loop ever walks the catalog.
"""
from peewee import fn

from app.models import Domain, ProductAttribute
from app.services.errors import ApiError


def _value_condition(pa, attribute):
    """`value_id` exact, `value_name` case-insensitive, `value_ids` any of; the delete form's
    `values: [{id, name}]` matches any of its ids or names."""
    if attribute.get("value_id") is not None:
        return pa.value_id == attribute["value_id"]
    if attribute.get("value_name") is not None:
        return pa.value_key == value_key(attribute["value_name"])
    if attribute.get("value_ids") is not None:
        return pa.value_id.in_(list(attribute["value_ids"]))
    ids = [v["id"] for v in attribute.get("values") or () if v.get("id") is not None]
    names = [value_key(v["name"]) for v in attribute.get("values") or () if v.get("name") is not None]
    condition = None
    if ids:
        condition = pa.value_id.in_(ids)
    if names:
        by_name = pa.value_key.in_(names)
        condition = by_name if condition is None else (condition | by_name)
    if condition is None:
        raise ValueError("attribute without a value")  # the input schemas rule this out
    return condition


def value_key(name):
    """How value names are compared: the same folding the importer stores in value_key."""
    return name.strip().lower()


def family_query(domain_id, attributes):
    """SELECT of the product ids the family selects (child products only)."""
    first, *rest = attributes
    base = ProductAttribute.alias("fa0")
    query = base.select(base.product).where(
        base.domain_id == domain_id, base.is_child == True,  # noqa: E712
        base.attribute_id == first["id"], _value_condition(base, first))
    for n, attribute in enumerate(rest, 1):
        pa = ProductAttribute.alias(f"fa{n}")
        query = query.join(pa, on=((pa.product == base.product) & (pa.attribute_id == attribute["id"])
                                   & _value_condition(pa, attribute)))
    return query


def count_family(domain_id, attributes):
    return family_query(domain_id, attributes).select(fn.COUNT(1)).scalar() or 0


def expand_family(domain_id, attributes, limit):
    """Up to `limit` + 1 product ids, enough to tell that a family exceeds `limit`."""
    query = family_query(domain_id, attributes).limit(limit + 1)
    return [product_id for (product_id,) in query.tuples()]


def require_domain(domain_id):
    domain = Domain.get_or_none(Domain.id == domain_id)
    if domain is None:
        raise ApiError(404, "domain_not_found", f"Domain {domain_id} does not exist")
    return domain


def describe(family):
    """A family as its error messages name it."""
    values = []
    for attribute in family["attributes"]:
        value = (attribute.get("value_id") or attribute.get("value_name") or attribute.get("value_ids")
                 or [v.get("id") or v.get("name") for v in attribute.get("values") or ()])
        values.append(f"{attribute['id']}={value}")
    return f"{family['domain_id']} ({', '.join(values)})"


def count_family_products(domain_id, attributes, max_products):
    """Endpoint 2: how many products the family selects; 400 above the per-request limit,
    since such a family could not be sent to the write endpoints."""
    require_domain(domain_id)
    count = count_family(domain_id, attributes)
    if count > max_products:
        raise ApiError(400, "too_many_products",
                       f"The family selects {count} products, more than the {max_products} allowed "
                       "per request: add attributes to narrow it")
    return {"count": count}
