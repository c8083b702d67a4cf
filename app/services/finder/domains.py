"""Catalog domains as the finder describes them (F1), and the checks every finder request makes on
the attributes it names: known to the domain, not repeated."""
from dataclasses import dataclass

from app.errors import ApiError
from app.models import Domain
from app.services.finder import queries
from app.services.finder.matching import pairs_read
from schemas.bundle import ATTRIBUTE_DEFAULTS


@dataclass(frozen=True)
class DomainAttribute:
    id: str
    name: str
    value_type: str
    hierarchy: str
    relevance: int


@dataclass(frozen=True)
class CatalogDomain:
    id: str
    name: str
    site_id: str
    attributes: list  # DomainAttribute, in refinement order

    def attribute_names(self):
        return {a.id: a.name for a in self.attributes}


@dataclass(frozen=True)
class Known:
    """One known attribute of a request: the values of `attribute_id` a product must have one of,
    and where the request named it (for the 400 that names it)."""
    attribute_id: str
    value_ids: tuple
    field: str = None


def require_domain(domain_id):
    """The domain, or 404 `not_found`."""
    return _domain(domain_id, queries.domain(domain_id))


def parse_known(known):
    """The request's `known_attributes` as Known, in its order, each value once (given as
    `value_id` or `value_ids`), named by where the request gave them; checked against the domain
    by `check_known` once the domain is read."""
    return [Known(a["id"], tuple(dict.fromkeys(a.get("value_ids") or [a["value_id"]])), f"known_attributes.{n}.id")
            for n, a in enumerate(known or ())]


def require_domain_sizing(domain_id, known):
    """(the domain or 404, the stored size rows of the `known` values (Known, from parse_known):
    for `sized_from` once `check_known` has checked them, and the stored pair counts between them:
    for `narrowed`). One statement, as a round trip counts on PostgreSQL: (attribute_id, value_id,
    metric) rows and (known_attribute_id, known_value_id, attribute_id, value_id, metric) rows."""
    if not known:
        return require_domain(domain_id), [], []
    row, sizes, pairs = queries.domain_sizing(domain_id, known, paired=pairs_read(known))
    return _domain(domain_id, row), sizes, pairs


def _domain(domain_id, row):
    if row is None:
        raise ApiError("not_found", f"Domain {domain_id} does not exist")
    found_id, name, site_id, attributes = row
    # Domains stored before the finder have no value_type, hierarchy or relevance: the defaults.
    attributes = [DomainAttribute(**{**ATTRIBUTE_DEFAULTS, **{k: a[k] for k in a if k in _FIELDS}})
                  for a in Domain.attributes.python_value(attributes) or ()]
    return CatalogDomain(found_id, name, site_id, attributes)


_FIELDS = set(DomainAttribute.__dataclass_fields__)


def get_domain(domain_id):
    """F1: the domain with its attributes in refinement order."""
    return require_domain(domain_id)


def unknown_attribute(domain, attribute_id, field):
    return ApiError("unknown_attribute",
                    f"Attribute {attribute_id} is not an attribute of domain {domain.id}",
                    [{"code": "unknown_attribute", "message": f"Domain {domain.id} has no attribute {attribute_id}",
                      "field": field}])


def require_attribute(domain, attribute_id, field):
    if attribute_id not in domain.attribute_names():
        raise unknown_attribute(domain, attribute_id, field)
    return attribute_id


def check_known(domain, known):
    """`known` (from parse_known), once each of its attributes is checked against the domain: 400
    naming the first one the domain lacks or the request repeats."""
    seen = set()
    for k in known:
        require_attribute(domain, k.attribute_id, k.field)
        if k.attribute_id in seen:
            raise ApiError("repeated_attribute",
                           f"Attribute {k.attribute_id} is repeated in known_attributes: send its values "
                           "once, in value_ids",
                           [{"code": "repeated_attribute", "message": f"{k.attribute_id} is repeated",
                             "field": k.field}])
        seen.add(k.attribute_id)
    return known
