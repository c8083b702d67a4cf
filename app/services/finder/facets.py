"""The finder's stored counts (app/models/finder.py), rebuilt per domain by the importer.

A rebuild is three INSERT … SELECT … GROUP BY statements over the domain's attribute rows, run in
the import's transaction: set-based, so a million products cost seconds once per import instead
of a GROUP BY per request.
"""
from peewee import fn

from app.models import Product, ProductAttribute
from app.models import finder as stored
from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet


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
    pa = ProductAttribute
    singles = (pa.select(pa.domain_id, pa.attribute_id, pa.value_id, pa.value_name, fn.COUNT(pa.product))
               .where((pa.domain_id == domain_id) & (pa.is_child == True))  # noqa: E712
               .group_by(pa.domain_id, pa.attribute_id, pa.value_id, pa.value_name))
    FinderFacet.insert_from(singles, [FinderFacet.domain_id, FinderFacet.attribute_id, FinderFacet.value_id,
                                      FinderFacet.value_name, FinderFacet.metric]).execute()
    _insert_pairs(domain_id)


def _insert_pairs(domain_id):
    """Counts among the products of each popular known value (by value_id: what clients send)."""
    popular = (FinderFacet.select(FinderFacet.attribute_id, FinderFacet.value_id)
               .where((FinderFacet.domain_id == domain_id) & FinderFacet.value_id.is_null(False))
               .group_by(FinderFacet.attribute_id, FinderFacet.value_id)
               .having(fn.SUM(FinderFacet.metric) >= stored.POPULAR_VALUE)).alias("popular")
    known, other = ProductAttribute.alias("known"), ProductAttribute.alias("other")
    pairs = (known.select(known.domain_id, known.attribute_id, known.value_id, other.attribute_id,
                          other.value_id, other.value_name, fn.COUNT(known.product))
             .join(popular, on=((popular.c.attribute_id == known.attribute_id)
                                & (popular.c.value_id == known.value_id)))
             .join(other, on=((other.product == known.product) & (other.attribute_id != known.attribute_id)))
             .where((known.domain_id == domain_id) & (known.is_child == True))  # noqa: E712
             .group_by(known.domain_id, known.attribute_id, known.value_id, other.attribute_id,
                       other.value_id, other.value_name))
    FinderPairFacet.insert_from(pairs, [
        FinderPairFacet.domain_id, FinderPairFacet.known_attribute_id, FinderPairFacet.known_value_id,
        FinderPairFacet.attribute_id, FinderPairFacet.value_id, FinderPairFacet.value_name,
        FinderPairFacet.metric]).execute()
