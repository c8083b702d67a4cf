"""Attribute scopes: a product attribute row holds the id of its (domain, child flag,
attribute) instead of the domain and the flag, and its two value indexes lead with that integer
(app/models/catalog.py, AttributeScope). The table is built again under its new shape and the
rows copied across.

The table is written out as it was then rather than made from the model, whose rows name their
product by its key since 0016: a database several releases behind takes the migrations one after
the other. The finder's counts of every domain (0003's) are read from the rows through their scopes
and by that key: they are emptied here, and 0016 makes them."""

INDEXES = (
    'CREATE UNIQUE INDEX "product_attribute_product_id_attribute_id" ON "product_attribute"'
    ' ("product_id", "attribute_id")',
    'CREATE INDEX "product_attribute_scope_id_value_id_product_id" ON "product_attribute"'
    ' ("scope_id", "value_id", "product_id")',
    'CREATE INDEX "product_attribute_scope_id_value_key_product_id" ON "product_attribute"'
    ' ("scope_id", "value_key", "product_id")',
)


def _columns(db):
    return {column.name for column in db.get_columns("product_attribute")}


def up(migrator, db):
    from app.db import is_postgres
    from app.models import AttributeScope, Domain
    from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
    from app.services.finder.facets import refresh_facets

    if "scope_id" not in _columns(db):
        db.create_tables([AttributeScope], safe=True)
        db.execute_sql("INSERT INTO attribute_scope (domain_id, is_child, attribute_id)"
                       " SELECT DISTINCT domain_id, is_child, attribute_id FROM product_attribute")
        db.execute_sql("ALTER TABLE product_attribute RENAME TO product_attribute_before_scopes")
        for index in db.get_indexes("product_attribute_before_scopes"):  # their names are the new table's
            db.execute_sql(f'DROP INDEX "{index.name}"')
        code = ' COLLATE "C"' if is_postgres() else ""  # the codes' CodeField
        db.execute_sql(
            'CREATE TABLE "product_attribute" ("product_id" VARCHAR(40) NOT NULL, "scope_id" INTEGER NOT NULL,'
            f' "attribute_id" VARCHAR(100) NOT NULL{code}, "value_id" VARCHAR(100){code},'
            f' "value_name" VARCHAR(255), "value_key" VARCHAR(255){code}, "position" INTEGER NOT NULL,'
            ' FOREIGN KEY ("product_id") REFERENCES "product" ("id") ON DELETE CASCADE,'
            ' FOREIGN KEY ("scope_id") REFERENCES "attribute_scope" ("id"))')
        db.execute_sql(
            "INSERT INTO product_attribute (product_id, scope_id, attribute_id, value_id, value_name, value_key,"
            " position) SELECT o.product_id, s.id, o.attribute_id, o.value_id, o.value_name, o.value_key, o.position"
            " FROM product_attribute_before_scopes o JOIN attribute_scope s ON s.domain_id = o.domain_id"
            " AND s.is_child = o.is_child AND s.attribute_id = o.attribute_id")
        db.execute_sql("DROP TABLE product_attribute_before_scopes")
        for statement in INDEXES:
            db.execute_sql(statement)
    if "product_id" in _columns(db):
        for model in (FinderPairFacet, FinderFacet, FinderDomain):
            model.delete().execute()
    else:
        refresh_facets(domain_id for (domain_id,) in Domain.select(Domain.id).tuples())
