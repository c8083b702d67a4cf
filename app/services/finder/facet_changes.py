"""The finder's stored counts (app/models/finder.py) updated from the products an import changes,
instead of recounted from every product of their domains.

Recounting a domain reads all its attribute rows twice (a GROUP BY, then an ordered pass for the
pair counts), however few products an import changes. The counts are sums over child products,
so an import adds what its new rows count and takes away what the rows they replace counted;
both are in memory already (the importer compares them to skip unchanged products). The one
thing not in memory: a known value that becomes popular needs pair counts among the stored
products that carry it and the import leaves alone, which are fewer than POPULAR_VALUE by
definition, read before the import writes anything (`plan`).

`plan(changes)` before the product writes, `apply(planned)` after. A count that would go negative
means the stored counts were not the sum of the stored rows: that domain is recounted whole
(facets.refresh_facets), as it is by the migration and a test that compares both ways.
"""
from collections import Counter
from functools import partial
from itertools import chain, combinations
from operator import itemgetter

from app.models import finder as stored
from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
from app.services.finder import queries
from app.services.finder.facets import refresh_facets

PAIR_FIELDS = ["domain_id", "known_attribute_id", "known_value_id", "attribute_id", "value_id", "value_name",
               "metric"]


class _Domain:
    """One domain's counts: stored ones read, then the import's changes added."""

    def __init__(self, domain_id):
        self.id = domain_id
        self.children = FinderDomain.select(FinderDomain.child_products).where(
            FinderDomain.domain_id == domain_id).scalar() or 0
        self.singles = Counter({tuple(k): n for *k, n in FinderFacet.select(
            FinderFacet.attribute_id, FinderFacet.value_id, FinderFacet.value_name, FinderFacet.metric).where(
            FinderFacet.domain_id == domain_id).tuples()})
        self.popular_before = _popular(self.singles)
        self.pairs = Counter()


def _popular(singles):
    sizes = Counter()
    for (attribute_id, value_id, _), n in singles.items():
        if value_id is not None:
            sizes[(attribute_id, value_id)] += n
    return {key for key, n in sizes.items() if n >= stored.POPULAR_VALUE}


def _add(counter, counts, sign):
    for key, n in counts.items():
        counter[key] += sign * n


def plan(changes):
    """`changes`: {product_key: (before, after)}, each None (no product) or (domain_id, is_child,
    attribute rows as (product_key, scope, attribute_id, value_id, value_name, ...)). Products by
    their keys (Product.key), as the stored attribute rows name them: the stored products an import
    changes are told from those it leaves alone by key (`_stored_pairs`), so a new product's key
    needs only be one no stored product has. Reads what the stored counts need; call before the
    products are written."""
    domains, sides = {}, {}  # sides: {(domain_id, sign): [child rows of one product, ...]}
    for before, after in changes.values():
        for state, sign in ((before, -1), (after, 1)):
            if state is None:
                continue
            if state[0] not in domains:
                domains[state[0]] = _Domain(state[0])
            side = sides.setdefault((state[0], sign), [])
            if state[1]:  # only child products are counted
                domains[state[0]].children += sign
                side.append(list(map(_COUNTED, state[2])))
    counted = {key: _counted(products) for key, products in sides.items()}
    for (domain_id, sign), (rows, singles, _) in counted.items():
        _add(domains[domain_id].singles, {rows[n]: count for n, count in singles.items()}, sign)
    for domain in domains.values():
        domain.popular = _popular(+domain.singles)
        _stored_pairs(domain, set(changes))
    for (domain_id, sign), (rows, _, pairs) in counted.items():
        domain = domains[domain_id]
        # A value popular only now has no stored pairs to take the replaced rows from.
        popular = domain.popular if sign > 0 else domain.popular & domain.popular_before
        if popular:
            _add_pairs(domain.pairs, rows, pairs, popular, sign)
    return list(domains.values())


_COUNTED = itemgetter(2, 3, 4)  # (attribute_id, value_id, value_name) of an attribute row
_PAIRS = partial(combinations, r=2)


def _counted(products):
    """(distinct rows, {row number: products}, {(row number, row number): products}) of the child
    rows of some products: every pair of a product's rows counted once, in the product's order
    (_add_pairs reads it both ways: half the pairs of counting each order), popular or not, and
    filtered per distinct pair after. Rows are numbered so that itertools and Counter count in C,
    instead of a tuple key built per pair in Python, a large share of a product import. The
    price: pairs whose known value is not popular are counted too, so a catalog of values unique
    to one product holds up to twice the distinct pairs of the result while it plans."""
    rows = list(set(chain.from_iterable(products)))
    number = {row: n for n, row in enumerate(rows)}.__getitem__
    numbered = [tuple(map(number, product)) for product in products]
    return (rows, Counter(chain.from_iterable(numbered)),
            Counter(chain.from_iterable(map(_PAIRS, numbered))))


def _add_pairs(counter, rows, pairs, popular, sign):
    """Adds to `counter` the pair counts of `_counted` (its `rows` and `pairs`) whose known value
    is in `popular`, keyed (known attribute, known value_id, attribute, value_id, value_name), each
    pair both ways."""
    for (a, b), n in pairs.items():
        for known, other in ((rows[a], rows[b]), (rows[b], rows[a])):
            if known[:2] in popular and other[0] != known[0]:
                counter[(known[0], known[1], *other)] += sign * n


def _stored_pairs(domain, changed):
    """The pair counts the stored products the import leaves alone contribute: stored ones for a
    value already popular, counted from the rows of the (few) products that carry a value that
    becomes popular now. `changed`: the keys of the products the import changes, as
    rows_of_products_with names the stored ones."""
    kept = domain.popular & domain.popular_before
    query = FinderPairFacet.select(*(getattr(FinderPairFacet, f) for f in PAIR_FIELDS[1:])).where(
        FinderPairFacet.domain_id == domain.id).tuples()
    domain.pairs.update({tuple(key): n for *key, n in query if tuple(key[:2]) in kept})
    for known in domain.popular - domain.popular_before:
        products = {}
        for product_key, *row in queries.rows_of_products_with(domain.id, *known):
            if product_key not in changed:
                products.setdefault(product_key, []).append(tuple(row))
        rows, _, pairs = _counted(list(products.values()))
        _add_pairs(domain.pairs, rows, pairs, {known}, 1)


def apply(planned):
    """Writes the planned counts (after the products are written)."""
    from app.services.bundle.sql import insert_rows  # the bundle package imports this module

    for domain in planned:
        if domain.children < 0 or any(n < 0 for n in domain.singles.values()) \
                or any(n < 0 for n in domain.pairs.values()):
            refresh_facets([domain.id])
            continue
        for model in (FinderDomain, FinderFacet, FinderPairFacet):
            model.delete().where(model.domain_id == domain.id).execute()
        if domain.children:
            FinderDomain.insert(domain_id=domain.id, child_products=domain.children).execute()
        insert_rows(FinderFacet, ["domain_id", "attribute_id", "value_id", "value_name", "metric"],
                    [(domain.id, *key, n) for key, n in domain.singles.items() if n])
        insert_rows(FinderPairFacet, PAIR_FIELDS, [(domain.id, *key, n) for key, n in domain.pairs.items() if n])
