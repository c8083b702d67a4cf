"""The catalog: domains, categories, the compatibility rules between domains, and products."""
from peewee import BigIntegerField, BooleanField, CharField, ForeignKeyField, IntegerField

from app.models.base import BaseModel, CodeField, JSONField
from app.models.common import Site


class Domain(BaseModel):
    id = CharField(primary_key=True, max_length=100)  # "<site_id>-<NAME>"
    site = ForeignKeyField(Site, on_delete="CASCADE")
    name = CharField(max_length=200)
    attributes = JSONField(default=list)  # [{id, name}]


class Category(BaseModel):
    id = CharField(primary_key=True, max_length=40)
    site = ForeignKeyField(Site, on_delete="CASCADE")
    name = CharField(max_length=200)
    domain = ForeignKeyField(Domain, null=True, on_delete="SET NULL")


class CompatibilityDomain(BaseModel):
    """An item-side domain of endpoint 1's dump."""
    domain = ForeignKeyField(Domain, primary_key=True, on_delete="CASCADE")
    main = BooleanField(default=False)


class CompatibilityRule(BaseModel):
    """One (item domain, compatible domain) pair of the dump."""
    domain = ForeignKeyField(CompatibilityDomain, backref="rules", on_delete="CASCADE")
    compatible_domain = ForeignKeyField(Domain, on_delete="CASCADE")
    type = CharField(max_length=40, default="EXTENSION")
    required = BooleanField(default=False)
    restrictions = JSONField(default=list)
    position = IntegerField(default=0)

    class Meta:
        indexes = ((("domain", "compatible_domain"), True),)


class CategoryRule(BaseModel):
    """What a category allows for one domain pair: required, notes, restrictions, universal."""
    rule = ForeignKeyField(CompatibilityRule, backref="categories", on_delete="CASCADE")
    category = ForeignKeyField(Category, on_delete="CASCADE")
    required = BooleanField(default=False)
    note_status = CharField(max_length=10, default="ENABLED")
    restrictions_status = CharField(max_length=10, default="ENABLED")
    universal_status = CharField(max_length=10, default="DISABLED")
    position = IntegerField(default=0)

    class Meta:
        indexes = ((("rule", "category"), True), (("category",), False))


class RestrictionAttribute(BaseModel):
    """An attribute of endpoint 7 for a domain pair; its id is the stable attribute_code."""
    main_domain = ForeignKeyField(Domain, on_delete="CASCADE")
    secondary_domain = ForeignKeyField(Domain, on_delete="CASCADE")
    attribute_id = CharField(max_length=100)
    position = IntegerField(default=0)

    class Meta:
        indexes = ((("main_domain", "secondary_domain", "attribute_id"), True),)


class RestrictionValue(BaseModel):
    """A value of a restriction attribute; its id is the stable value_code."""
    attribute = ForeignKeyField(RestrictionAttribute, backref="values", on_delete="CASCADE")
    value_id = CharField(max_length=100)
    value_name = CharField(max_length=255)
    position = IntegerField(default=0)

    class Meta:
        indexes = ((("attribute", "value_id"), True),)


class Product(BaseModel):
    """A catalog product; only child products (with a parent) can be made compatible."""
    id = CharField(primary_key=True, max_length=40)
    # An integer the database gives the product when it is first stored, never changed nor reused
    # (app/services/row_keys/queries.py): the compatibilities name their product by it.
    key = BigIntegerField(null=True, unique=True)
    domain = ForeignKeyField(Domain, on_delete="CASCADE", index=False)
    site = ForeignKeyField(Site, on_delete="CASCADE", index=False)
    name = CharField(max_length=300)
    parent_id = CharField(max_length=40, null=True, index=True)

    class Meta:
        indexes = ((("domain", "parent_id"), False),)


class AttributeScope(BaseModel):
    """A (domain, child flag, attribute) whose product rows a family's attribute selects among,
    numbered: the attribute rows' indexes lead with this integer instead of the three columns.

    Keyed by the three columns, each of the two value indexes sorted rows whose first three key
    columns (two texts and a flag) were equal almost everywhere, which made PostgreSQL build them
    far more slowly than keyed by one integer; SQLite, too, inserts the rows faster into the
    narrower indexes. Scopes are only ever added (by the import), never renumbered."""
    domain_id = CharField(max_length=100)
    is_child = BooleanField()
    attribute_id = CharField(max_length=100)

    class Meta:
        indexes = ((("domain_id", "is_child", "attribute_id"), True),)


class ProductAttribute(BaseModel):
    """One attribute value of a product, with the scope (the product's domain and child flag, and
    the attribute) a family's attribute is looked up by, so that a family is answered from indexes."""
    # The product by its integer key (Product.key), as the compatibilities name it: the three
    # indexes end with it, and integers sort and compare faster than the text ids' collation.
    product = ForeignKeyField(Product, field=Product.key, column_name="product_key", object_id_name="product_key",
                              backref="attribute_rows", on_delete="CASCADE", index=False)
    scope = ForeignKeyField(AttributeScope, index=False)
    attribute_id = CodeField(max_length=100)
    value_id = CodeField(max_length=100, null=True)
    value_name = CharField(max_length=255, null=True)
    value_key = CodeField(max_length=255, null=True)  # value_name without case or accents
    position = IntegerField(default=0)

    class Meta:
        primary_key = False
        indexes = (
            (("product", "attribute_id"), True),
            (("scope", "value_id", "product"), False),
            (("scope", "value_key", "product"), False),
        )


class DomainDiscoveryTerm(BaseModel):
    """Free-text terms the category predictor learns from, per (site, domain, category)."""
    site = ForeignKeyField(Site, on_delete="CASCADE")
    domain = ForeignKeyField(Domain, on_delete="CASCADE")
    category = ForeignKeyField(Category, null=True, on_delete="SET NULL")
    terms = JSONField(default=list)

    class Meta:
        indexes = ((("site", "domain", "category"), True),)


class CatalogVersion(BaseModel):
    """One row (id 1) whose `version` changes whenever the importer writes what the category
    predictor learns from or the chart sheets chart search keeps, so a process tells by one
    primary-key read whether what it keeps is stale.

    A random stamp rather than a counter: a database emptied and loaded again (or another one
    under the same name) never repeats a version a process has cached.
    """
    id = IntegerField(primary_key=True)
    version = CharField(max_length=32)


class ProductKeyOrder(BaseModel):
    """Per domain: whether its products' keys are in the order of their ids (a product with a
    greater id has a greater key), so that a page of its products by id can be read in the order of
    the attribute rows' indexes, which end with the key (app/services/row_keys/order.py); and the
    greatest id stored in it, which the next import's ids are compared with. No row for a domain
    that has products: not known, taken as not."""
    domain_id = CharField(primary_key=True, max_length=100)
    greatest_id = CharField(max_length=40, null=True)
    keys_follow_ids = BooleanField()


__all__ = ["Domain", "Category", "CompatibilityDomain", "CompatibilityRule", "CategoryRule",
           "RestrictionAttribute", "RestrictionValue", "Product", "AttributeScope", "ProductAttribute",
           "DomainDiscoveryTerm", "CatalogVersion", "ProductKeyOrder"]
