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

from app.services.finder import queries
from app.services.finder.domains import check_known, parse_known, require_attribute, require_domain_sizing
from app.services.finder.matching import narrowed, sized_from


@dataclass(frozen=True)
class TopValue:
    id: str
    name: str
    metric: int


def top_values(domain_id, attribute_id, known, limit):
    known = parse_known(known)
    domain, sizes, pairs = require_domain_sizing(domain_id, known)
    require_attribute(domain, attribute_id, "attribute_id")
    known = sized_from(check_known(domain, known), sizes)
    if any(k.total == 0 for k in known) or (known := narrowed(known, pairs)) is None:
        return []
    if not known:
        rows = queries.top_stored(domain.id, attribute_id, limit)
    elif len(known) == 1 and known[0].attribute_id != attribute_id:
        rows = _one_known(domain.id, attribute_id, known[0], limit)
    else:
        rows = queries.top_counted(queries.Matching(domain.id, known[0], known[1:]), attribute_id, limit)
    return [TopValue(value_id, name, int(metric)) for value_id, name, metric in rows]


def _one_known(domain_id, attribute_id, known, limit):
    if known.popular and not known.rare and len(known.popular) == 1:
        # Already one row per value, in index order.
        return queries.top_pairs(domain_id, attribute_id, known, known.popular[0], limit)
    return queries.top_pairs_and_counted(domain_id, attribute_id, known, limit)
