"""A partly known vehicle (attribute ids and value ids, as B2's filter and B3's body give it) and the
child products it means, in the vehicle domains of a site.

The matching itself is the family matching of the compatibility writes (`family_query`: index-driven,
most selective attribute first), the one place that turns attribute values into child products.
"""
from dataclasses import dataclass

from peewee import fn

from app.errors import ApiError
from app.models import CompatibilityRule, Domain
from app.services.compat.families import family_query


@dataclass(frozen=True)
class KnownAttribute:
    id: str
    value_id: str
    field: str  # where the request named it, for the 400 that names it


@dataclass(frozen=True)
class MatchedVehicles:
    """The child products a partial vehicle means: a product-id subquery per vehicle domain."""
    queries: dict  # {vehicle domain id: SELECT product_id}
    counts: dict  # {vehicle domain id: matching child products}

    @property
    def total(self):
        return sum(self.counts.values())

    def product_ids(self):
        """One SELECT of every matching product id (UNION ALL over the domains)."""
        queries = [self.queries[d] for d in sorted(self.queries) if self.counts[d]]
        union = queries[0]
        for query in queries[1:]:
            union = union.union_all(query)
        return union

    def single_product_id(self):
        """The one product meant, when exactly one is."""
        if self.total != 1:
            return None
        domain_id = next(d for d, n in self.counts.items() if n)
        return self.queries[domain_id].scalar()


def vehicle_domains(site_id):
    """{vehicle domain id: its attribute ids} for the domains of `site_id` that some item domain can
    be made compatible with (those are the vehicles; their products carry the attributes)."""
    rows = (Domain.select(Domain.id, Domain.attributes)
            .where(Domain.site == site_id,
                   Domain.id.in_(CompatibilityRule.select(CompatibilityRule.compatible_domain)))
            .order_by(Domain.id))
    return {row.id: [a["id"] for a in row.attributes or ()] for row in rows}


def require_known_attributes(domains, known):
    """400 naming the first attribute no vehicle domain of the site has."""
    described = set().union(*domains.values()) if domains else set()
    for attribute in known:
        if attribute.id not in described:
            raise ApiError(400, "unknown_attribute",
                           f"{attribute.field}: attribute {attribute.id} is not an attribute of the site's "
                           f"vehicles ({', '.join(sorted(described)) or 'none'})",
                           [{"code": "unknown_attribute", "message": f"unknown attribute {attribute.id}",
                             "field": attribute.field}])


def match_vehicles(domains, known):
    """The child products of `domains` ({id: attribute ids}) that carry every known value.

    A domain lacking one of the attributes has no product that carries it, so it is left out
    without a query."""
    family = [{"id": a.id, "value_id": a.value_id} for a in known]
    queries, counts = {}, {}
    for domain_id, attribute_ids in domains.items():
        if all(a.id in attribute_ids for a in known):
            query = family_query(domain_id, family)
            queries[domain_id] = query
            counts[domain_id] = query.select(fn.COUNT(1)).scalar() or 0
    return MatchedVehicles(queries, counts)
