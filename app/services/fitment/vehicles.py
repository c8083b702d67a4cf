"""A partly known vehicle (attribute ids and value ids, as B2's filter and B3's body give it) and the
child products it means, in the vehicle domains of a site.

The matching is the vehicle finder's (app/services/finder/matching.py): each known value's size read
from the stored facet counts, the smallest one driving index lookups of the others, so its cost
follows the most selective value (a model year: ten products), not the catalog.
"""
from dataclasses import dataclass

from peewee import SQL

from app.db import db
from app.errors import ApiError
from app.services.finder.domains import Known
from app.services.finder.matching import matching_from, size_parts, sized_from
from app.services.fitment import queries


@dataclass(frozen=True)
class KnownAttribute:
    id: str
    value_id: str
    field: str  # where the request named it, for the 400 that names it


@dataclass(frozen=True)
class MatchedVehicles:
    """The child products a partial vehicle means: (SELECT product_id ..., params) per vehicle domain."""
    queries: dict  # {vehicle domain id: (sql, params)} of the domains with matching products
    counts: dict  # {vehicle domain id: matching child products}

    @property
    def total(self):
        return sum(self.counts.values())

    def product_ids_sql(self):
        """(SELECT of every matching product id, its params)."""
        parts = [self.queries[d] for d in sorted(self.queries)]
        return " UNION ALL ".join(sql for sql, _ in parts), [p for _, ps in parts for p in ps]

    def product_ids(self):
        """The SELECT of `product_ids_sql`, parenthesised for `column.in_(...)`."""
        sql, params = self.product_ids_sql()
        return SQL(f"({sql})", params)

    def single_product_id(self):
        """The one product meant, when exactly one is."""
        if self.total != 1:
            return None
        sql, params = next(iter(self.queries.values()))
        return db.execute_sql(sql, params).fetchone()[0]


def vehicle_domains(site_id):
    """{vehicle domain id: its attribute ids} for the domains of `site_id` that some item domain can
    be made compatible with (those are the vehicles; their products carry the attributes)."""
    return {domain_id: [a["id"] for a in attributes or ()]
            for domain_id, attributes in queries.vehicle_domains(site_id)}


def require_known_attributes(domains, known):
    """400 naming the first attribute no vehicle domain of the site has."""
    described = set().union(*domains.values()) if domains else set()
    for attribute in known:
        if attribute.id not in described:
            raise ApiError("unknown_attribute",
                           f"{attribute.field}: attribute {attribute.id} is not an attribute of the site's "
                           f"vehicles ({', '.join(sorted(described)) or 'none'})",
                           [{"code": "unknown_attribute", "message": f"unknown attribute {attribute.id}",
                             "field": attribute.field}])


def match_vehicles(domains, known):
    """The child products of `domains` ({id: attribute ids}) that carry every known value.

    A domain lacking one of the attributes has no product that carries it, and one where a known
    value has no product (its stored count is 0) has none either: both are left out without a
    matching query. Otherwise the finder's matching: the smallest known value drives, the others
    are index lookups."""
    wanted = [Known(a.id, (a.value_id,)) for a in known]
    eligible = [d for d, attribute_ids in domains.items() if all(a.id in attribute_ids for a in known)]
    selects, counts = {}, {}
    for domain_id, (driver, *others) in _sized_by_domain(eligible, wanted).items():
        if driver.total == 0:
            continue
        matching, params = matching_from(domain_id, driver, others)
        count = driver.total if not others else db.execute_sql(f"SELECT COUNT(*){matching}", params).fetchone()[0]
        if count:
            selects[domain_id] = (f"SELECT d.product_id{matching}", params)
            counts[domain_id] = count
    return MatchedVehicles(selects, counts)


def _sized_by_domain(domain_ids, known):
    """{domain id: its Sized known attributes, smallest first}: the stored sizes of every domain
    read in one statement (a round trip counts on PostgreSQL)."""
    parts, params = [], []
    for domain_id in domain_ids:
        more, values = size_parts(domain_id, known, "domain_id, attribute_id, value_id, metric")
        parts += more
        params += values
    rows = db.execute_sql(" UNION ALL ".join(parts), params).fetchall() if parts else []
    return {d: sized_from(known, [row[1:] for row in rows if row[0] == d]) for d in domain_ids}
