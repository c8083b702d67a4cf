"""The finder's statements, prepared (app.prepared_sql.prepared): compiled by peewee once per shape (how many
known attributes, how many values each, the sort) and run with each request's values.

A list of values is tested with `=` when it holds one (so that an index gives its rows in product
order; with `IN (?)` SQLite picks the index in answer order and walks every value), else with an
IN list. Past 8 values the list is padded to a multiple of 8 by repeating its last value (which
matches nothing more): a request of 20 or 24 years runs the statement compiled for 24 instead of
adding a shape of its own to the cache, which every area shares (app.db.MAX_PREPARED). A string
pads more cheaply than a NULL, which sqlite3 binds through an adapter.
"""
from functools import cache
from itertools import chain, repeat

from peewee import JOIN, OP, SQL, Entity, Expression, fn

from app.db import db, is_postgres
from app.models import AttributeScope, Domain, Product, ProductAttribute
from app.models.finder import FinderFacet, FinderPairFacet
from app.prepared_sql import execute_prepared, param, prepared
from app.services.row_keys.lookups import product_id_of

_NULL = SQL("NULL")
_ORDERS = {"ASC": "asc", "DESC": "desc"}  # a sort's direction: a method of peewee's column, never the input
# Top values in answer order: of the stored counts' indexes, or of a count's own columns.
_TOP_ORDER = (Entity("metric").desc(), Entity("value_name"), Entity("value_id"))


def _slots(n):
    """How many params an IN list of `n` values takes: n up to 8, else n rounded up to a multiple of 8."""
    return n if n <= 8 else -(-n // 8) * 8


@cache
def _names(name, slots):
    """The params of an IN list: name0, name1, ..., formatted once instead of on every call."""
    return tuple(f"{name}{k}" for k in range(slots))


def _put(values, name, items):
    """`values` with the params of an IN list of `items` (`_one_of`): name0, name1, ..., padded to
    its slots with its last item."""
    values.update(zip(_names(name, _slots(len(items))), chain(items, repeat(items[-1])), strict=False))
    return values


def _one_of(node, name, n):
    """`node` equal to the param `name0` when n is 1, else IN (name0, name1, ...)."""
    if n == 1:
        return Expression(node, OP.EQ, param(f"{name}0"))
    return Expression(node, OP.IN, [param(p) for p in _names(name, n)])


def _scope_id(domain, attribute):
    """The scope id of the domain's child attribute (params `domain`, `attribute`): a scalar
    subquery, run once per statement, whose value the attribute rows' indexes lead with."""
    scope = AttributeScope.alias("scope")
    return scope.select(scope.id).where((scope.domain_id == param(domain)) & (scope.is_child == True)  # noqa: E712
                                        & (scope.attribute_id == param(attribute)))


def domain(domain_id):
    """(id, name, site id, attributes as stored) of the domain, or None."""
    return execute_prepared("finder_domain", lambda: Domain.select(
        Domain.id, Domain.name, Domain.site, Domain.attributes).where(Domain.id == param("id")),
        {"id": domain_id}).fetchone()


def domain_sizing(domain_id, known, paired):
    """(the domain's row as `domain` reads it, or None; (attribute_id, value_id, metric) rows of
    the stored sizes of the `known` values (Known); (known_attribute_id, known_value_id,
    attribute_id, value_id, metric) rows of the stored pair counts between them when `paired`),
    in one statement: a round trip counts on PostgreSQL. Each part reads one index; the rows tell
    their part by the columns a part leaves NULL."""
    values = {"domain": domain_id}
    for n, k in enumerate(known):
        values[f"s{n}"] = k.attribute_id
        _put(values, f"s{n}v", k.value_ids)
    shape = (tuple(_slots(len(k.value_ids)) for k in known), _put_pairs(values, known) if paired else ())
    rows = execute_prepared(("finder_domain_sizing", shape), lambda: _domain_sizing(*shape), values).fetchall()
    domain_row = next((row[:4] for row in rows if row[0] is not None), None)
    return (domain_row, [row[7:] for row in rows if row[0] is None and row[4] is None],
            [row[5:] for row in rows if row[4] is not None])


def _put_pairs(values, known):
    """`values` with the params of the pair counts between the `known` values (`_pair_counts`):
    for each attribute, its values and the other attributes' ids and values; the shape of those
    params."""
    shape = []
    for n, k in enumerate(known):
        others = [o for o in known if o.attribute_id != k.attribute_id]
        if not others:
            continue
        other_values = list(dict.fromkeys(v for o in others for v in o.value_ids))
        values[f"p{n}"] = k.attribute_id
        _put(values, f"p{n}v", k.value_ids)
        _put(values, f"p{n}k", [o.attribute_id for o in others])
        _put(values, f"p{n}kv", other_values)
        shape.append((n, _slots(len(k.value_ids)), _slots(len(others)), _slots(len(other_values))))
    return tuple(shape)


def _pair_counts(domain, pair_shape, *columns):
    """The stored pair counts of one known attribute's values (params `p{n}`…, `_put_pairs`) with
    popular values of the others, in the domain of param `domain`, after `columns`: a few rows
    whatever the catalog (one model: its brand, its years, its versions)."""
    n, slots, n_others, other_slots = pair_shape
    f = FinderPairFacet
    return f.select(*columns, f.known_attribute_id, f.known_value_id, f.attribute_id, f.value_id, f.metric).where(
        (f.domain_id == param(domain)) & (f.attribute_id == param(f"p{n}")) & _one_of(f.value_id, f"p{n}v", slots)
        & _one_of(f.known_attribute_id, f"p{n}k", n_others) & _one_of(f.known_value_id, f"p{n}kv", other_slots))


def _domain_sizing(sizes, pairs):
    query = Domain.select(Domain.id, Domain.name, Domain.site, Domain.attributes, *[_NULL] * 6).where(
        Domain.id == param("domain"))
    for n, slots in enumerate(sizes):
        query = query.union_all(FinderFacet.select(
            *[_NULL] * 7, FinderFacet.attribute_id, FinderFacet.value_id, FinderFacet.metric)
            .where((FinderFacet.domain_id == param("domain")) & (FinderFacet.attribute_id == param(f"s{n}"))
                   & _one_of(FinderFacet.value_id, f"s{n}v", slots)))
    for pair_shape in pairs:
        query = query.union_all(_pair_counts("domain", pair_shape, *[_NULL] * 4, SQL("'pair'")))
    return query


def sizes_by_domain(domain_ids, known, paired):
    """([(domain_id, attribute_id, value_id, metric)] of the stored sizes of the `known` values
    (Known) in each of the domains, [(domain_id, known_attribute_id, known_value_id, attribute_id,
    value_id, metric)] of the stored pair counts between them when `paired`), in one statement."""
    values = {f"d{d}": domain_id for d, domain_id in enumerate(domain_ids)}
    for n, k in enumerate(known):
        values[f"a{n}"] = k.attribute_id
        _put(values, f"a{n}v", k.value_ids)
    shape = (len(domain_ids), tuple(_slots(len(k.value_ids)) for k in known),
             _put_pairs(values, known) if paired else ())

    def build():
        f = FinderFacet
        parts = [f.select(f.domain_id, _NULL, _NULL, f.attribute_id, f.value_id, f.metric)
                 .where((f.domain_id == param(f"d{d}")) & (f.attribute_id == param(f"a{n}"))
                        & _one_of(f.value_id, f"a{n}v", slots))
                 for d in range(shape[0]) for n, slots in enumerate(shape[1])]
        parts += [_pair_counts(f"d{d}", pair_shape, FinderPairFacet.domain_id)
                  for d in range(shape[0]) for pair_shape in shape[2]]
        query = parts[0]
        for part in parts[1:]:
            query = query.union_all(part)
        return query
    rows = execute_prepared(("finder_sizes_by_domain", shape), build, values).fetchall()
    return ([(row[0], *row[3:]) for row in rows if row[1] is None], [row for row in rows if row[1] is not None])


class Matching:
    """The child products of a domain that carry a value of `driver` (of `driver_values`, when
    given) and of every one of `others` (each Known or Sized, tested in that order): the shape of
    its statement and the values it runs with."""

    __slots__ = ("shape", "values")

    def __init__(self, domain_id, driver, others=(), driver_values=None):
        driver_values = driver_values or driver.value_ids
        self.shape = (_slots(len(driver_values)), tuple(_slots(len(k.value_ids)) for k in others))
        self.values = _put({"domain": domain_id, "a0": driver.attribute_id}, "a0v", driver_values)
        for n, k in enumerate(others, 1):
            self.values[f"a{n}"] = k.attribute_id
            _put(self.values, f"a{n}v", k.value_ids)


def _matching(shape, prefix=""):
    """(the driver's rows `d`, the WHERE of Matching's products as `d.product`, their keys), with its
    params named after `prefix`. Each other attribute is a correlated scalar subquery (one
    (product_key, attribute_id) lookup per product, as a join would do) rather than a join:
    PostgreSQL plans a join of several product_attribute rows by weighing their orders, which cost
    more than running the query, and a subquery is planned once, alone."""
    driver_slots, others = shape
    d = ProductAttribute.alias("d")
    where = (d.scope == _scope_id(f"{prefix}domain", f"{prefix}a0")) & _one_of(d.value_id, f"{prefix}a0v", driver_slots)
    for n, slots in enumerate(others, 1):
        k = ProductAttribute.alias("k")
        value = k.select(k.value_id).where((k.product == d.product) & (k.attribute_id == param(f"{prefix}a{n}")))
        where &= _one_of(value, f"{prefix}a{n}v", slots)
    return d, where


def count(matching):
    """How many products `matching` selects."""
    def build():
        d, where = _matching(matching.shape)
        return d.select(fn.COUNT(SQL("*"))).where(where)
    return execute_prepared(("finder_count", matching.shape), build, matching.values).fetchone()[0]


def _sorted(query, key, order, sort):
    """The query ordered by the sort attribute's value name (products without it last in either
    direction: a LEFT JOIN `s` of the product's row of it, by its `key`), then by `order` (the
    product's id, or its key where keys follow ids); by `order` alone without a sort."""
    if not sort:
        return query.order_by(order)
    s = ProductAttribute.alias("s")
    query = query.join(s, JOIN.LEFT_OUTER, on=((s.product == key) & (s.attribute_id == param("sort"))))
    return query.order_by(s.value_name.is_null(), getattr(s.value_name, _ORDERS[sort["order"]])(), order)


def page(matching, sort, limit, offset, counted=False, by_key=False):
    """(product key,) rows of one page of `matching`'s products, sorted as `_sorted` says, with the
    number of all of them in each row when `counted` (a window over the same statement).

    `by_key` when the products' keys follow their ids (app/services/row_keys/order.py): the page is
    in the order of the driver's index entries, which a single value's rows are read in, up to the
    page's end. Otherwise each matching product's id is read (a correlated scalar subquery, one
    probe of the product's unique key index, never a join a plan could turn into a scan of the
    products) and all of them are sorted by it."""
    def build():
        d, where = _matching(matching.shape)
        columns = [d.product]
        order = d.product
        if not by_key:
            columns.append(product_id_of(d.product, "paged").alias("product_id"))
            order = Entity("product_id")
        if counted:
            columns.append(fn.COUNT(SQL("*")).over())
        return _sorted(d.select(*columns), d.product, order, sort).where(where).limit(param("limit")) \
            .offset(param("offset"))
    key = ("finder_page", matching.shape, sort and sort["order"], counted, by_key)
    values = {**matching.values, "limit": limit, "offset": offset}
    if sort:
        values["sort"] = sort["attribute_id"]
    return [(row[0], row[-1]) if counted else (row[0],) for row in execute_prepared(key, build, values).fetchall()]


def domain_page(domain_id, sort, limit, offset):
    """(product key,) rows of one page of the domain's child products, sorted as `_sorted` says (by id)."""
    def build():
        p = Product.alias("p")
        return (_sorted(p.select(p.key), p.key, p.id, sort)
                .where((p.domain == param("domain")) & p.parent_id.is_null(False))
                .limit(param("limit")).offset(param("offset")))
    values = {"domain": domain_id, "limit": limit, "offset": offset}
    if sort:
        values["sort"] = sort["attribute_id"]
    return execute_prepared(("finder_domain_page", sort and sort["order"]), build, values).fetchall()


def products(keys):
    """(key, id, name, domain_id, site_id, parent_id, attribute_id, value_id, value_name) rows of the
    products of `keys`, each product's row repeated beside each of its attributes (one round trip),
    by product id and the attributes' position."""
    def build():
        p, a = Product.alias("p"), ProductAttribute.alias("a")
        return (p.select(p.key, p.id, p.name, p.domain, p.site, p.parent_id, a.attribute_id, a.value_id,
                         a.value_name)
                .join(a, JOIN.LEFT_OUTER, on=(a.product == p.key)).where(_one_of(p.key, "key", slots))
                .order_by(p.id, a.position))
    slots = _slots(len(keys))
    return execute_prepared(("finder_products", slots), build, _put({}, "key", keys)).fetchall()


def top_stored(domain_id, attribute_id, limit):
    """(value_id, value_name, metric) of the attribute's values among all the domain's child
    products: the stored counts, read in answer order from their index."""
    f = FinderFacet
    return execute_prepared("finder_top_stored", lambda: (
        f.select(f.value_id, f.value_name, f.metric)
        .where((f.domain_id == param("domain")) & (f.attribute_id == param("attribute")))
        .order_by(*_TOP_ORDER).limit(param("limit"))),
        {"domain": domain_id, "attribute": attribute_id, "limit": limit}).fetchall()


def _pairs(slots):
    """The stored counts of an attribute (`attribute`) among the products of some popular values
    (`known0`, ...) of the known attribute `known`."""
    f = FinderPairFacet
    return (f.select(f.value_id, f.value_name, f.metric)
            .where((f.domain_id == param("domain")) & (f.known_attribute_id == param("known"))
                   & _one_of(f.known_value_id, "known", slots) & (f.attribute_id == param("attribute"))))


def _pair_values(domain_id, attribute_id, known, known_values):
    return _put({"domain": domain_id, "attribute": attribute_id, "known": known.attribute_id}, "known", known_values)


def top_pairs(domain_id, attribute_id, known, value_id, limit):
    """(value_id, value_name, metric) of the attribute's values among the products of one popular
    value of `known`: its stored pair counts, one row per value, read in answer order from their index."""
    values = _pair_values(domain_id, attribute_id, known, [value_id])
    values["limit"] = limit
    return execute_prepared("finder_top_pairs", lambda: _pairs(1).order_by(*_TOP_ORDER).limit(param("limit")),
                            values).fetchall()


def _counted(shape):
    """(value_id, value_name, metric) of the attribute `attribute` among the products of a
    Matching of `shape`, counted."""
    d, where = _matching(shape)
    t = ProductAttribute.alias("t")
    return (d.select(t.value_id.alias("value_id"), t.value_name.alias("value_name"), fn.COUNT(SQL("*")).alias("metric"))
            .join(t, on=((t.product == d.product) & (t.attribute_id == param("attribute"))))
            .where(where).group_by(t.value_id, t.value_name))


def top_counted(matching, attribute_id, limit):
    """(value_id, value_name, metric) of the attribute's values among `matching`'s products, counted."""
    return execute_prepared(("finder_top_counted", matching.shape),
                            lambda: _counted(matching.shape).order_by(*_TOP_ORDER).limit(param("limit")),
                            {**matching.values, "attribute": attribute_id, "limit": limit}).fetchall()


def top_pairs_and_counted(domain_id, attribute_id, known, limit):
    """(value_id, value_name, metric) of the attribute's values among the products of the values
    of `known` (a Sized): the stored pair counts of its popular values plus a count over the
    products of its rare ones. A value of one attribute never shares a product with another, so
    the two parts add up."""
    popular, rare = known.popular, known.rare
    counted = Matching(domain_id, known, (), rare) if rare else None
    shape = (_slots(len(popular)), counted and counted.shape)
    values = _pair_values(domain_id, attribute_id, known, popular) if popular else {"attribute": attribute_id}
    values.update(counted.values if counted else (), limit=limit)

    def build():
        parts = ([_pairs(shape[0])] if popular else []) + ([_counted(shape[1])] if counted else [])
        union = parts[0] if len(parts) == 1 else parts[0].union_all(parts[1])
        summed = union.select_from(union.c.value_id, union.c.value_name, fn.SUM(union.c.metric).alias("metric"))
        return summed.group_by(union.c.value_id, union.c.value_name).order_by(*_TOP_ORDER).limit(param("limit"))
    return execute_prepared(("finder_top_pairs_and_counted", shape), build, values).fetchall()


def product_keys_of_shapes(shapes):
    """The keys of the products of Matchings of `shapes`, one SELECT of each joined by UNION ALL,
    params prefixed m0_, m1_, ... (`product_keys_of_values`): for a prepared builder that embeds it.
    Keys, as the attribute rows and the compatibilities name their products: a caller that tests
    compatibilities compares them as they are, with no product looked up."""
    parts = []
    for n, shape in enumerate(shapes):
        d, where = _matching(shape, f"m{n}_")
        parts.append(d.select(d.product).where(where))
    query = parts[0]
    for part in parts[1:]:
        query = query.union_all(part)
    return query


def product_keys_of_values(matchings):
    """The values of `product_keys_of_shapes` for these Matchings."""
    return {f"m{n}_{name}": value for n, m in enumerate(matchings) for name, value in m.values.items()}


def first_product(matching):
    """(id, key) of one of `matching`'s products (the only one, for a caller that counted one): its
    text id to answer, its key to test compatibilities by."""
    def build():
        d, where = _matching(matching.shape)
        return d.select(product_id_of(d.product, "first"), d.product).where(where)
    return execute_prepared(("finder_first_product", matching.shape), build, matching.values).fetchone()


def product_keys_of_matchings(matchings):
    """The keys of the products of all the Matchings as a parenthesised SELECT, for `column.in_()`."""
    shapes = tuple(m.shape for m in matchings)
    sql, params = prepared(("finder_product_keys_of", shapes), lambda: product_keys_of_shapes(shapes),
                           product_keys_of_values(matchings))
    return SQL(f"({sql})", params)


def rows_of_products_with(domain_id, attribute_id, value_id):
    """(product_key, attribute_id, value_id, value_name) of the domain's child products that carry
    the value: driven from that value's rows, each product's rows then read by its key (a product's
    rows all share its domain and child flag). Products by key, as the rows name them: the caller
    only tells them apart."""
    def build():
        k, a = ProductAttribute.alias("k"), ProductAttribute.alias("a")
        return (k.select(a.product, a.attribute_id, a.value_id, a.value_name)
                .join(a, on=(a.product == k.product))
                .where((k.scope == _scope_id("domain", "attribute")) & (k.value_id == param("value"))))
    return execute_prepared("finder_rows_of_products_with", build,
                            {"domain": domain_id, "attribute": attribute_id, "value": value_id}).fetchall()


def rows_by_product(domain_id):
    """(product_key, attribute_id, value_id, value_name) of the domain's child products, streamed in
    the order of their keys (the caller only groups them by product): a PostgreSQL client-side
    cursor would hold all the rows of a large catalog at once, so a server cursor is declared, in
    the transaction (its parameters bound by the server, as psycopg 3 binds all of them: DECLARE
    takes them)."""
    sql, params = prepared("finder_rows_by_product", lambda: (
        ProductAttribute.select(ProductAttribute.product, ProductAttribute.attribute_id, ProductAttribute.value_id,
                                ProductAttribute.value_name)
        .where(ProductAttribute.scope.in_(AttributeScope.select(AttributeScope.id).where(
            (AttributeScope.domain_id == param("domain")) & (AttributeScope.is_child == True))))  # noqa: E712
        .order_by(ProductAttribute.product)), {"domain": domain_id})
    if not is_postgres():
        yield from db.execute_sql(sql, params)
        return
    with db.atomic():  # a cursor lives in a transaction (the import's, when there is one)
        db.execute_sql(f"DECLARE finder_pairs NO SCROLL CURSOR FOR {sql}", params)
        try:
            while rows := db.execute_sql("FETCH 10000 FROM finder_pairs").fetchall():
                yield from rows
        finally:
            db.execute_sql("CLOSE finder_pairs")
