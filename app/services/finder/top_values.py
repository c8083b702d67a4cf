"""F2: the values of one attribute among the child products matching the known attributes, with
how many products carry each (`metric`), most frequent first.

Three ways, cheapest first, each exact:
- no known attribute: the stored counts (FinderFacet), read in answer order from their index;
- one known attribute: its popular values' stored pair counts (FinderPairFacet) plus, for its rare
  values, a count over their few products; values of one attribute never share a product, so the
  two parts add up;
- several: a count over the products of the smallest known attribute (matching.py), once the
  stored pair counts have dropped the known attributes all its products match (`narrowed`: a
  brand known with its model), so the common cascade step of a brand and a model is the second way.
"""
from dataclasses import dataclass

from app.db import db
from app.services.finder.domains import known_attributes, require_attribute, require_domain_sizing
from app.services.finder.matching import PA, marks, matching_from, narrowed, sized_from

ORDER = "ORDER BY metric DESC, value_name, value_id LIMIT {p}"


@dataclass(frozen=True)
class TopValue:
    id: str
    name: str
    metric: int


def top_values(domain_id, attribute_id, known, limit):
    domain, sizes, pairs = require_domain_sizing(domain_id, known)
    require_attribute(domain, attribute_id, "attribute_id")
    known = sized_from(known_attributes(domain, known), sizes)
    if any(k.total == 0 for k in known) or (known := narrowed(known, pairs)) is None:
        return []
    if not known:
        sql, params = _stored(domain.id, attribute_id)
    elif len(known) == 1 and known[0].attribute_id != attribute_id:
        sql, params = _one_known(domain.id, attribute_id, known[0])
    else:
        sql, params = _counted(domain.id, attribute_id, known[0], known[1:])
    cursor = db.execute_sql(f"{sql} {ORDER.format(p=db.param)}", [*params, limit])
    return [TopValue(value_id, name, int(metric)) for value_id, name, metric in cursor.fetchall()]


def _stored(domain_id, attribute_id):
    return (f"SELECT value_id, value_name, metric FROM finder_facet WHERE domain_id = {db.param}"
            f" AND attribute_id = {db.param}", [domain_id, attribute_id])


def _pairs(domain_id, attribute_id, known, values):
    where = f"known_value_id = {db.param}" if len(values) == 1 else f"known_value_id IN ({marks(values)})"
    return (f"SELECT value_id, value_name, metric FROM finder_pair_facet WHERE domain_id = {db.param}"
            f" AND known_attribute_id = {db.param} AND {where} AND attribute_id = {db.param}",
            [domain_id, known.attribute_id, *values, attribute_id])


def _counted(domain_id, attribute_id, driver, others, driver_values=None):
    target = (f" JOIN {PA} t ON t.product_id = d.product_id AND t.attribute_id = {db.param}", [attribute_id])
    matching, params = matching_from(domain_id, driver, others, driver_values, target)
    return (f"SELECT t.value_id AS value_id, t.value_name AS value_name, COUNT(*) AS metric{matching}"
            " GROUP BY t.value_id, t.value_name", params)


def _one_known(domain_id, attribute_id, known):
    popular, rare = known.popular, known.rare
    if popular and not rare and len(popular) == 1:
        return _pairs(domain_id, attribute_id, known, popular)  # already one row per value, in index order
    parts = []
    if popular:
        parts.append(_pairs(domain_id, attribute_id, known, popular))
    if rare:
        parts.append(_counted(domain_id, attribute_id, known, (), rare))
    union = " UNION ALL ".join(sql for sql, _ in parts)
    return (f"SELECT value_id, value_name, SUM(metric) AS metric FROM ({union}) parts"
            f" GROUP BY value_id, value_name", [p for _, params in parts for p in params])
