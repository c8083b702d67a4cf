"""The vehicle finder's counts (extensions.md F), kept by the importer beside the products.

Counting a million attribute rows per request (a GROUP BY) costs hundreds of milliseconds, so the
importer stores what a cascade step reads, rebuilt for each domain whose products it wrote, in the
import's own transaction (counts are exact as soon as the import commits):
- FinderDomain: the number of child products of a domain (F3's total with no known attribute);
- FinderFacet: per (domain, attribute, value), how many child products carry it (F2 with no known
  attribute, and the size of each known value, which picks the cheapest way to answer);
- FinderPairFacet: the same counts among the products of one *popular* known value (at least
  POPULAR_VALUE products, such as a brand or a year). A rare known value is answered by a join from
  its few rows instead, so the table stays a fraction of the catalog's size.
"""
from peewee import CharField, IntegerField

from app.models.base import BaseModel

# A known value with this many child products or more has its pair counts stored.
POPULAR_VALUE = 1000


class FinderDomain(BaseModel):
    domain_id = CharField(primary_key=True, max_length=100)
    child_products = IntegerField()


class _ValueCount(BaseModel):
    """How many child products of a domain carry one value of one attribute (no table of its own)."""
    domain_id = CharField(max_length=100)
    attribute_id = CharField(max_length=100)
    value_id = CharField(max_length=100, null=True)
    value_name = CharField(max_length=255, null=True)
    metric = IntegerField()

    class Meta:
        primary_key = False


class FinderFacet(_ValueCount):
    class Meta:
        # A known value's size, from the index alone (metric included, or SQLite prefers finderfacet_top,
        # which covers the query too but walks every value of the attribute).
        indexes = ((("domain_id", "attribute_id", "value_id", "metric"), False),)


class FinderPairFacet(_ValueCount):
    """The counts among the child products that carry one popular known value."""
    known_attribute_id = CharField(max_length=100)
    known_value_id = CharField(max_length=100)


# Top values are read in answer order (metric descending, then name) straight from these indexes,
# which also cover every column read: no sort, no table row.
FinderFacet.add_index(FinderFacet.index(
    FinderFacet.domain_id, FinderFacet.attribute_id, FinderFacet.metric.desc(), FinderFacet.value_name,
    FinderFacet.value_id, name="finderfacet_top"))
FinderPairFacet.add_index(FinderPairFacet.index(
    FinderPairFacet.domain_id, FinderPairFacet.known_attribute_id, FinderPairFacet.known_value_id,
    FinderPairFacet.attribute_id, FinderPairFacet.metric.desc(), FinderPairFacet.value_name,
    FinderPairFacet.value_id, name="finderpairfacet_top"))
# How many products a request's known values share (the overlaps `narrowed` reads, matching.py):
# from one value, the popular values stored with it, a few rows whatever the catalog (a model's
# brand, years and versions; finderpairfacet_top from a year would walk every model).
FinderPairFacet.add_index(FinderPairFacet.index(
    FinderPairFacet.domain_id, FinderPairFacet.attribute_id, FinderPairFacet.value_id,
    FinderPairFacet.known_attribute_id, FinderPairFacet.known_value_id, FinderPairFacet.metric,
    name="finderpairfacet_pair"))

FINDER_MODELS = [FinderDomain, FinderFacet, FinderPairFacet]

__all__ = ["FinderDomain", "FinderFacet", "FinderPairFacet", "FINDER_MODELS", "POPULAR_VALUE"]
