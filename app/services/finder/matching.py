"""The known attributes of a request sized and ordered for the matching of products (queries.Matching).

Each known attribute's size is read from the stored counts (FinderFacet), so the matching starts from
the smallest one (a model, not a brand) and checks the others by (product_key, attribute_id) lookups:
its cost follows the smallest known value, not the catalog.
"""
from dataclasses import dataclass

from app.models import finder as stored


@dataclass
class Sized:
    """A known attribute with how many child products carry each of its values."""
    attribute_id: str
    value_ids: tuple
    sizes: dict  # value_id -> child products
    overlap: int = None  # child products it shares with the smallest known attribute, when stored

    @property
    def total(self):
        return sum(self.sizes.values())

    @property
    def popular(self):
        return tuple(v for v in self.value_ids if self.sizes.get(v, 0) >= stored.POPULAR_VALUE)

    @property
    def rare(self):
        return tuple(v for v in self.value_ids if 0 < self.sizes.get(v, 0) < stored.POPULAR_VALUE)


def sized_from(known, rows):
    """The known attributes as Sized, smallest first, from (attribute_id, value_id, metric) rows."""
    sizes = {}
    for attribute_id, value_id, metric in rows:
        by_value = sizes.setdefault(attribute_id, {})
        by_value[value_id] = by_value.get(value_id, 0) + int(metric)  # one row per (id, name) of a value
    return sorted((Sized(k.attribute_id, k.value_ids, sizes.get(k.attribute_id, {})) for k in known),
                  key=lambda s: s.total)


# Past this many known attributes, their pair counts are not read.
MAX_PAIRED = 6


def pairs_read(known):
    """Whether the stored pair counts between the `known` attributes are read for `narrowed`: from
    two known attributes to MAX_PAIRED."""
    return 2 <= len(known) <= MAX_PAIRED


def narrowed(known, pairs):
    """`known` (Sized, smallest first) without the attributes that every product of the smallest
    one matches, as the stored pair counts show (a brand known with its model), the others by
    their overlap with it; None when that overlap shows that no product matches them all.

    A pair count is used only when every value of its known attribute is popular (its pair counts
    are all stored): then the counts of its values add up to the products it shares (values of one
    attribute never share a product), exact as the stored counts are."""
    if len(known) < 2:
        return known
    driver, shared = known[0], {}
    values = {k.attribute_id: set(k.value_ids) for k in known}
    for known_id, known_value, attribute_id, value_id, metric in pairs:
        if known_value in values.get(known_id, ()) and value_id in values.get(attribute_id, ()):
            shared[(known_id, attribute_id)] = shared.get((known_id, attribute_id), 0) + int(metric)
    complete = {k.attribute_id for k in known
                if all(k.sizes.get(v, 0) == 0 or k.sizes[v] >= stored.POPULAR_VALUE for v in k.value_ids)}
    kept = []
    for k in known[1:]:
        if k.attribute_id in complete:
            k.overlap = shared.get((k.attribute_id, driver.attribute_id), 0)
        elif driver.attribute_id in complete:
            k.overlap = shared.get((driver.attribute_id, k.attribute_id), 0)
        if k.overlap == 0:
            return None
        if k.overlap != driver.total:
            kept.append(k)
    return [driver, *sorted(kept, key=lambda k: k.total if k.overlap is None else k.overlap)]


def stored_total(known):
    """How many products carry every one of `known` (narrowed, not empty), from the stored counts:
    a single attribute's values (values of one attribute never share a product: their counts add
    up), or two whose overlap is stored; None when only a count over the products can tell."""
    if len(known) == 1 or known[0].total == 0:
        return known[0].total
    if len(known) == 2 and known[1].overlap is not None:
        return known[1].overlap
    return None
