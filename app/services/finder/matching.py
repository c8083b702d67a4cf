"""The child products that match every known attribute, as SQL built from the request's shape.

Each known attribute's size is read from the stored counts (FinderFacet), so the query starts from
the smallest one (a model, not a brand) and checks the others by (product_id, attribute_id) lookups:
its cost follows the smallest known value, not the catalog.
"""
from dataclasses import dataclass

from app.db import db
from app.models import finder as stored

PA = "product_attribute"


def scope():
    """The scope id of (domain_id, is_child, attribute_id), its params in that order: a scalar
    subquery, run once per statement, whose value the attribute rows' indexes lead with."""
    p = db.param
    return f"(SELECT id FROM attribute_scope WHERE domain_id = {p} AND is_child = {p} AND attribute_id = {p})"


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


def marks(values):
    return ", ".join([db.param] * len(values))


def size_parts(domain_id, known, columns="attribute_id, value_id, metric"):
    """(SELECT parts, params) reading the stored size of every known value: one indexed read per
    attribute, to be joined by UNION ALL; `columns` may pad the three read with leading NULLs."""
    parts, params = [], []
    for k in known:
        # `=` for one value: with IN (?) SQLite picks the index in answer order and walks every value.
        test, values = value_test("value_id", k.value_ids)
        parts.append(f"SELECT {columns} FROM finder_facet WHERE domain_id = {db.param}"
                     f" AND attribute_id = {db.param} AND {test}")
        params += [domain_id, k.attribute_id, *values]
    return parts, params


def sized(domain_id, known):
    """The known attributes with their value sizes, smallest first: one statement (a round trip
    counts on PostgreSQL), a UNION ALL of one indexed read per attribute."""
    if not known:
        return []
    parts, params = size_parts(domain_id, known)
    return sized_from(known, db.execute_sql(" UNION ALL ".join(parts), params).fetchall())


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


def pair_parts(domain_id, known, columns="known_attribute_id, known_value_id, attribute_id, value_id, metric"):
    """(SELECT parts, params) reading the stored pair counts (FinderPairFacet) between the known
    attributes: how many products carry a value of both, stored for popular known values. One part
    per known attribute (a part costs planning on PostgreSQL): the pair counts of its values with
    popular values of the others, a few rows whatever the catalog (one value of a model: its brand,
    its years, its versions), of which `narrowed` keeps the request's values."""
    parts, params = [], []
    if not 2 <= len(known) <= MAX_PAIRED:
        return parts, params
    for k in known:
        others = [o for o in known if o.attribute_id != k.attribute_id]
        if not others:
            continue  # the request repeats one attribute: a 400 once checked
        test, values = value_test("value_id", k.value_ids)
        known_test, known_ids = value_test("known_attribute_id", [o.attribute_id for o in others])
        value_ids = list(dict.fromkeys(v for o in others for v in o.value_ids))
        known_value_test, known_values = value_test("known_value_id", value_ids)
        parts.append(f"SELECT {columns} FROM finder_pair_facet WHERE domain_id = {db.param}"
                     f" AND attribute_id = {db.param} AND {test} AND {known_test} AND {known_value_test}")
        params += [domain_id, k.attribute_id, *values, *known_ids, *known_values]
    return parts, params


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


def value_test(column, values):
    """`column = ?` for one value (so an index gives its rows in product order), IN otherwise."""
    if len(values) == 1:
        return f"{column} = {db.param}", list(values)
    return f"{column} IN ({marks(values)})", list(values)


def matching_from(domain_id, driver, others, driver_values=None, join=("", ())):
    """(FROM … WHERE …, params) of the products of `driver` (a Sized; `driver_values` narrows its
    values) that also match every one of `others`, tested in that order; the product column is
    `d.product_id`. `join` (sql, params) adds a join of the caller's (the attribute to count or to
    sort by).

    Each other attribute is a correlated scalar subquery (one (product_id, attribute_id) lookup
    per product, as a join would do) rather than a join: PostgreSQL plans a join of four or five
    product_attribute rows by weighing their orders, which cost more than running the query
    (0.7 ms of planning against 0.16 ms), and a subquery is planned once, alone."""
    sql, params = f" FROM {PA} d{join[0]}", list(join[1])
    test, values = value_test("d.value_id", driver_values or driver.value_ids)
    sql += f" WHERE d.scope_id = {scope()} AND {test}"
    params += [domain_id, True, driver.attribute_id, *values]
    for k in others:
        value = f"(SELECT k.value_id FROM {PA} k WHERE k.product_id = d.product_id AND k.attribute_id = {db.param})"
        test, values = value_test(value, k.value_ids)
        sql += f" AND {test}"
        params += [k.attribute_id, *values]
    return sql, params
