"""A partly known vehicle (attribute ids and value ids, as B2's filter and B3's body give it) and the
child products it means, in the vehicle domains of a site.

The matching is the vehicle finder's (app/services/finder/matching.py): each known value's size read
from the stored facet counts, the smallest one driving index lookups of the others but of those it
implies (a model's brand, as the stored pair counts show), so its cost follows the most selective
value, not the catalog.
"""
from dataclasses import dataclass

from app.errors import ApiError
from app.services.finder import queries as finder_queries
from app.services.finder.matching import narrowed, pairs_read, sized_from, stored_total
from app.services.fitment import queries


@dataclass(frozen=True)
class MatchedVehicles:
    """The child products a partial vehicle means, per vehicle domain."""
    matchings: dict  # {vehicle domain id: its finder_queries.Matching} of the domains with matching products
    counts: dict  # {vehicle domain id: matching child products}

    @property
    def total(self):
        return sum(self.counts.values())

    def by_domain(self):
        """The Matchings, by domain id."""
        return [self.matchings[d] for d in sorted(self.matchings)]

    def product_keys(self):
        """The SELECT of every matching product's key, parenthesised for `column.in_(...)`."""
        return finder_queries.product_keys_of_matchings(self.by_domain())

    def single_product(self):
        """(id, domain id, key) of the one product meant, when exactly one is: the row fitment's
        queries.product reads by id (require_product), so a caller needs no other read of it."""
        if self.total != 1:
            return None
        domain_id, matching = next(iter(self.matchings.items()))
        product_id, key = finder_queries.first_product(matching)
        return product_id, domain_id, key


def vehicle_domains(site_id):
    """{vehicle domain id: its attribute ids} for the domains of `site_id` that some item domain can
    be made compatible with (those are the vehicles; their products carry the attributes)."""
    return {domain_id: [a["id"] for a in attributes or ()]
            for domain_id, attributes in queries.vehicle_domains(site_id)}


def require_known_attributes(domains, known):
    """400 naming the first attribute no vehicle domain of the site has."""
    described = set().union(*domains.values()) if domains else set()
    for attribute in known:
        if attribute.attribute_id not in described:
            raise ApiError("unknown_attribute",
                           f"{attribute.field}: attribute {attribute.attribute_id} is not an attribute of the "
                           f"site's vehicles ({', '.join(sorted(described)) or 'none'})",
                           [{"code": "unknown_attribute", "message": f"unknown attribute {attribute.attribute_id}",
                             "field": attribute.field}])


def match_vehicles(domains, known):
    """The child products of `domains` ({id: attribute ids}) that carry every known value (Known).

    A domain lacking one of the attributes has no product that carries it, and one where a known
    value has no product (its stored count is 0) has none either: both are left out without a
    matching query. Otherwise the finder's matching: the known attributes the smallest one implies
    are dropped (a model's brand) and the others ordered by what they share with it, as the stored
    pair counts show (matching.narrowed); the smallest drives, the others are index lookups. The
    count comes from the stored counts when they tell it (matching.stored_total)."""
    eligible = [d for d, attribute_ids in domains.items() if all(a.attribute_id in attribute_ids for a in known)]
    sizes, pairs = finder_queries.sizes_by_domain(eligible, known, paired=pairs_read(known)) \
        if eligible and known else ([], [])
    matchings, counts = {}, {}
    for domain_id in eligible:
        sized = narrowed(sized_from(known, [row[1:] for row in sizes if row[0] == domain_id]),
                         [row[1:] for row in pairs if row[0] == domain_id])
        if sized is None:  # the stored pair counts show that no product matches
            continue
        matching = finder_queries.Matching(domain_id, sized[0], sized[1:])
        count = stored_total(sized)  # 0 when a known value has no product
        if count is None:
            count = finder_queries.count(matching)
        if count:
            matchings[domain_id], counts[domain_id] = matching, count
    return MatchedVehicles(matchings, counts)
