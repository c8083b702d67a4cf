"""Product families: the child products of a domain whose attributes match every given value.

A family is answered from the ProductAttribute indexes: its most selective attribute selects rows
by (scope, value), the scope standing for (domain_id, is_child, attribute_id); each further
attribute is a lookup of the same product by (product, attribute_id). No Python loop ever walks the catalog.
"""
from dataclasses import dataclass

from app.errors import ApiError, require
from app.models import Domain
from app.services.catalog.text_normalize import value_key
from app.services.compat import queries


@dataclass(frozen=True)
class FamilyCount:
    """Endpoint 2's answer (FamilyCountResultSchema)."""

    count: int


# Rows read at most to rank a family's attributes by selectivity.
SELECTIVITY_PROBE = 1000


def _ranked(shape, values):
    """The family's attributes (their positions), fewest matching rows first, counted up to
    SELECTIVITY_PROBE each; None when the domain does not exist. One prepared statement.

    The count starts from the first of them: starting from BRAND walks every child product of
    the brand, a number that grows with the catalog, where MODEL selects a few hundred. Ties keep
    the request's order."""
    probes = queries.family_probes(shape, values, SELECTIVITY_PROBE)
    if probes is None:
        return None
    return tuple(sorted(range(len(shape)), key=probes.__getitem__)) if probes else (0,)


def expand_family(domain_id, attributes, limit):
    """{product id: key} of up to `limit` + 1 products, enough to tell that a family exceeds
    `limit` (the caller has checked the domain)."""
    shape, values = _family_params(domain_id, attributes)
    order = _ranked(shape, values)
    return queries.family_products(shape, order, values, limit + 1) if order else {}


def require_domain(domain_id):
    return require(Domain, domain_id, "domain_not_found", f"Domain {domain_id} does not exist")


def describe(family):
    """A family as its error messages name it."""
    values = []
    for attribute in family["attributes"]:
        value = (attribute.get("value_id") or attribute.get("value_name") or attribute.get("value_ids")
                 or [v.get("id") or v.get("name") for v in attribute.get("values") or ()])
        values.append(f"{attribute['id']}={value}")
    return f"{family['domain_id']} ({', '.join(values)})"


def _value_sets(attribute):
    """(value ids, value keys) an attribute matches any of: `value_id` exact, `value_name` ignoring
    case and accents, `value_ids` any of; the delete form's `values: [{id, name}]` any of its ids
    or names."""
    if attribute.get("value_id") is not None:
        return [attribute["value_id"]], []
    if attribute.get("value_name") is not None:
        return [], [value_key(attribute["value_name"])]
    if attribute.get("value_ids") is not None:
        return list(attribute["value_ids"]), []
    ids = [v["id"] for v in attribute.get("values") or () if v.get("id") is not None]
    names = [value_key(v["name"]) for v in attribute.get("values") or () if v.get("name") is not None]
    if not ids and not names:
        raise ValueError("attribute without a value")  # the input schemas rule this out
    return ids, names


def _family_params(domain_id, attributes):
    """The family's shape (per attribute: how many value ids and keys), which its prepared SQL
    depends on, and its values by param name (compat.queries.family_probes, family_count,
    family_products)."""
    shape, values = [], {"domain": domain_id}
    for a, attribute in enumerate(attributes):
        ids, keys = _value_sets(attribute)
        values[f"a{a}"] = attribute["id"]
        values.update((f"a{a}id{k}", value) for k, value in enumerate(ids))
        values.update((f"a{a}key{k}", value) for k, value in enumerate(keys))
        shape.append((len(ids), len(keys)))
    return tuple(shape), values


def count_family_products(domain_id, attributes, max_products):
    """Endpoint 2: how many products the family selects; 400 above the per-request limit,
    since such a family could not be sent to the write endpoints. Two prepared statements: the
    domain check with the selectivity probes, then the count."""
    shape, values = _family_params(domain_id, attributes)
    order = _ranked(shape, values)
    if order is None:
        require_domain(domain_id)  # raises the 404
    count = queries.family_count(shape, order, values)
    if count > max_products:
        raise ApiError("too_many_products",
                       f"The family selects {count} products, more than the {max_products} allowed "
                       "per request: add attributes to narrow it")
    return FamilyCount(count)
