"""The vehicle finder: domain attributes get value_type, hierarchy and relevance (the
defaults of extensions.md F where a bundle gave none), value names are matched without case or
accents (value_key folded again). The finder's counts of every domain are built by 0005, which
gives the attribute rows the scopes the counting reads them by."""


def up(migrator, db):
    from app.models import Domain, ProductAttribute
    from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
    from app.services.catalog.text_normalize import value_key
    from schemas.bundle import ATTRIBUTE_DEFAULTS

    db.create_tables([FinderDomain, FinderFacet, FinderPairFacet], safe=True)
    for domain in Domain.select():
        attributes = [{**ATTRIBUTE_DEFAULTS, **a} for a in domain.attributes or ()]
        if attributes != domain.attributes:
            Domain.update(attributes=attributes).where(Domain.id == domain.id).execute()
    # One UPDATE per distinct name that folds differently ("Citroën": "citroën" -> "citroen").
    names = ProductAttribute.select(ProductAttribute.value_name, ProductAttribute.value_key).distinct().tuples()
    for name, key in list(names):
        if name is not None and value_key(name) != key:
            ProductAttribute.update(value_key=value_key(name)).where(
                ProductAttribute.value_name == name).execute()
