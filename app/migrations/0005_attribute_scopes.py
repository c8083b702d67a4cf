"""Attribute scopes: a product attribute row holds the id of its (domain, child flag,
attribute) instead of the domain and the flag, and its two value indexes lead with that integer
(app/models/catalog.py, AttributeScope). The table is built again under its new shape and the
rows copied across; then the finder's counts of every domain are made (0003's, which reads the
rows through their scopes)."""


def up(migrator, db):
    from app.models import AttributeScope, Domain, ProductAttribute
    from app.services.finder.facets import refresh_facets

    if "scope_id" not in {column.name for column in db.get_columns("product_attribute")}:
        db.create_tables([AttributeScope], safe=True)
        db.execute_sql("INSERT INTO attribute_scope (domain_id, is_child, attribute_id)"
                       " SELECT DISTINCT domain_id, is_child, attribute_id FROM product_attribute")
        db.execute_sql("ALTER TABLE product_attribute RENAME TO product_attribute_before_scopes")
        for index in db.get_indexes("product_attribute_before_scopes"):  # their names are the new table's
            db.execute_sql(f'DROP INDEX "{index.name}"')
        db.create_tables([ProductAttribute])
        db.execute_sql(
            "INSERT INTO product_attribute (product_id, scope_id, attribute_id, value_id, value_name, value_key,"
            " position) SELECT o.product_id, s.id, o.attribute_id, o.value_id, o.value_name, o.value_key, o.position"
            " FROM product_attribute_before_scopes o JOIN attribute_scope s ON s.domain_id = o.domain_id"
            " AND s.is_child = o.is_child AND s.attribute_id = o.attribute_id")
        db.execute_sql("DROP TABLE product_attribute_before_scopes")
    refresh_facets(domain_id for (domain_id,) in Domain.select(Domain.id).tuples())
