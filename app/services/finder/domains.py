"""Catalog domains as the finder describes them (F1), and the checks every finder request makes on
the attributes it names: known to the domain, not repeated."""
from dataclasses import dataclass

from app.db import db, execute_prepared, param
from app.errors import ApiError
from app.models import Domain
from app.services.finder.matching import pair_parts, size_parts
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
    """One known attribute of a request: the values of `attribute_id` a product must have one of."""
    attribute_id: str
    value_ids: tuple


def require_domain(domain_id):
    """The domain, or 404 `not_found`."""
    # Prepared: every finder request reads its domain, and peewee compiling the SELECT cost more than running it.
    row = execute_prepared("finder_domain", lambda: Domain.select(
        Domain.id, Domain.name, Domain.site, Domain.attributes).where(Domain.id == param("id")),
        {"id": domain_id}).fetchone()
    return _domain(domain_id, row)


def require_domain_sizing(domain_id, known):
    """(the domain or 404, the stored size rows of the values the request's `known_attributes`
    name, unchecked: for `sized_from` once `known_attributes` has checked them, and the stored pair
    counts between them: for `narrowed`). One statement, as a round trip counts on PostgreSQL: the
    domain's row, (attribute_id, value_id, metric) rows and (known_attribute_id, known_value_id,
    attribute_id, value_id, metric) rows."""
    unchecked = [Known(a["id"], tuple(a.get("value_ids") or [a["value_id"]])) for a in known or ()]
    if not unchecked:
        return require_domain(domain_id), [], []
    parts, params = size_parts(domain_id, unchecked, f"{', '.join(['NULL'] * 7)}, attribute_id, value_id, metric")
    pairs, pair_params = pair_parts(domain_id, unchecked, "NULL, NULL, NULL, NULL, 'pair', known_attribute_id,"
                                                          " known_value_id, attribute_id, value_id, metric")
    rows = db.execute_sql(" UNION ALL ".join([
        f"SELECT id, name, site_id, attributes, NULL, NULL, NULL, NULL, NULL, NULL FROM domain WHERE id = {db.param}",
        *parts, *pairs]), [domain_id, *params, *pair_params]).fetchall()
    domain_row = next((row[:4] for row in rows if row[0] is not None), None)
    return (_domain(domain_id, domain_row), [row[7:] for row in rows if row[0] is None and row[4] is None],
            [row[5:] for row in rows if row[4] is not None])


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


def known_attributes(domain, known):
    """The request's known attributes as Known, each checked against the domain (400 naming an
    unknown or a repeated one). Values may be given as `value_id` or `value_ids`."""
    parsed, seen = [], set()
    for index, attribute in enumerate(known or ()):
        attribute_id = require_attribute(domain, attribute["id"], f"known_attributes.{index}.id")
        if attribute_id in seen:
            raise ApiError("repeated_attribute",
                           f"Attribute {attribute_id} is repeated in known_attributes: send its values "
                           "once, in value_ids",
                           [{"code": "repeated_attribute", "message": f"{attribute_id} is repeated",
                             "field": f"known_attributes.{index}.id"}])
        seen.add(attribute_id)
        values = attribute.get("value_ids") or [attribute["value_id"]]
        parsed.append(Known(attribute_id, tuple(dict.fromkeys(values))))
    return parsed
