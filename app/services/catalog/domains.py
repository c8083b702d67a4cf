"""Reads of the compatibility catalog: the domain dump of a site and restriction values."""
from peewee import JOIN

from app.errors import ApiError
from app.models import (
    CategoryRule,
    CompatibilityDomain,
    CompatibilityRule,
    Domain,
    RestrictionAttribute,
    RestrictionValue,
)
from app.services.catalog.sites import get_site


def domain_dump(site_id):
    """Endpoint 1: every item-side domain of the site with its rules, in three queries."""
    get_site(site_id)
    domains = list(CompatibilityDomain.select(CompatibilityDomain.domain, CompatibilityDomain.main)
                   .join(Domain).where(Domain.site == site_id)
                   .order_by(CompatibilityDomain.domain).tuples())
    if not domains:
        return []
    rules = list(CompatibilityRule.select()
                 .where(CompatibilityRule.domain.in_([d for d, _ in domains]))
                 .order_by(CompatibilityRule.domain, CompatibilityRule.position, CompatibilityRule.id))
    categories = {}
    if rules:
        query = (CategoryRule.select()
                 .where(CategoryRule.rule.in_([r.id for r in rules]))
                 .order_by(CategoryRule.rule, CategoryRule.position, CategoryRule.id))
        for row in query:
            categories.setdefault(row.rule_id, []).append({
                "id": row.category_id, "required": row.required, "note_status": row.note_status,
                "restrictions_status": row.restrictions_status, "universal_status": row.universal_status})
    by_domain = {}
    for rule in rules:
        by_domain.setdefault(rule.domain_id, []).append({
            "compatible_domain_id": rule.compatible_domain_id, "type": rule.type,
            "required": rule.required, "restrictions": rule.restrictions or [],
            "categories": categories.get(rule.id, [])})
    return [{"domain_id": domain_id, "main": main, "compatibilities": by_domain.get(domain_id, [])}
            for domain_id, main in domains]


def restriction_values(main_domain_id, secondary_domain_id):
    """Endpoint 7: the restriction attributes and values allowed for a (vehicle, item) domain pair."""
    known = {d for (d,) in Domain.select(Domain.id)
             .where(Domain.id.in_([main_domain_id, secondary_domain_id])).tuples()}
    missing = [d for d in (main_domain_id, secondary_domain_id) if d not in known]
    if missing:
        raise ApiError("domain_not_found", f"Domain {missing[0]} does not exist")
    query = (RestrictionAttribute.select(RestrictionAttribute.attribute_id, RestrictionValue.value_id,
                                         RestrictionValue.value_name)
             .join(RestrictionValue, JOIN.LEFT_OUTER)
             .where(RestrictionAttribute.main_domain == main_domain_id,
                    RestrictionAttribute.secondary_domain == secondary_domain_id)
             .order_by(RestrictionAttribute.position, RestrictionAttribute.id,
                       RestrictionValue.position, RestrictionValue.id)
             .tuples())
    attributes = {}
    for attribute_id, value_id, value_name in query:
        values = attributes.setdefault(attribute_id, [])
        if value_id is not None:
            values.append({"value_id": value_id, "value_name": value_name})
    return {"attributes_values": [{"attribute_id": a, "values": v} for a, v in attributes.items()]}

