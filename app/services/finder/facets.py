"""The finder's stored counts (app/models/finder.py), rebuilt per domain by the importer.

A rebuild is two INSERT … SELECT … GROUP BY statements and one ordered pass over the domain's
attribute rows, run in the import's transaction: once per import instead of a GROUP BY per
request.
"""
from collections import Counter
from itertools import groupby
from operator import itemgetter

from peewee import fn

from app.models import AttributeScope, Product, ProductAttribute
from app.models import finder as stored
from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
from app.services.finder import queries


def refresh_facets(domain_ids):
    """Recount the finder's facets of these domains from their current products."""
    for domain_id in sorted(set(domain_ids)):
        _refresh_domain(domain_id)


def _refresh_domain(domain_id):
    for model in (FinderDomain, FinderFacet, FinderPairFacet):
        model.delete().where(model.domain_id == domain_id).execute()
    children = (Product.select(Product.domain, fn.COUNT(Product.id))
                .where((Product.domain == domain_id) & Product.parent_id.is_null(False))
                .group_by(Product.domain))
    FinderDomain.insert_from(children, [FinderDomain.domain_id, FinderDomain.child_products]).execute()
    pa, scope = ProductAttribute, AttributeScope
    singles = (pa.select(scope.domain_id, pa.attribute_id, pa.value_id, pa.value_name, fn.COUNT(pa.product))
               .join(scope, on=(scope.id == pa.scope))
               .where((scope.domain_id == domain_id) & (scope.is_child == True))  # noqa: E712
               .group_by(scope.domain_id, pa.attribute_id, pa.value_id, pa.value_name))
    FinderFacet.insert_from(singles, [FinderFacet.domain_id, FinderFacet.attribute_id, FinderFacet.value_id,
                                      FinderFacet.value_name, FinderFacet.metric]).execute()
    _insert_pairs(domain_id)


def _insert_pairs(domain_id):
    """Counts among the products of each popular known value (by value_id: what clients send).

    One pass over the domain's attribute rows in product (key) order, counted in Python: the same
    count as a self-join GROUP BY, which spent most of its time sorting a temporary B-tree of
    every pair of rows on text keys, several times slower.
    """
    from app.services.bundle.sql import insert_rows  # the bundle package imports this module

    popular = {(a, v) for a, v in FinderFacet.select(FinderFacet.attribute_id, FinderFacet.value_id)
               .where((FinderFacet.domain_id == domain_id) & FinderFacet.value_id.is_null(False))
               .group_by(FinderFacet.attribute_id, FinderFacet.value_id)
               .having(fn.SUM(FinderFacet.metric) >= stored.POPULAR_VALUE).tuples()}
    if not popular:
        return
    counts = Counter()
    for _, group in groupby(queries.rows_by_product(domain_id), key=itemgetter(0)):
        attributes = [row[1:] for row in group]
        for known_id, known_value, _ in attributes:
            if (known_id, known_value) in popular:
                for attribute_id, value_id, value_name in attributes:
                    if attribute_id != known_id:
                        counts[(known_id, known_value, attribute_id, value_id, value_name)] += 1
    insert_rows(FinderPairFacet, ["domain_id", "known_attribute_id", "known_value_id", "attribute_id", "value_id",
                                  "value_name", "metric"], [(domain_id, *key, n) for key, n in counts.items()])

