"""F3 answers its page without marshmallow (schemas.finder.product_page_body): the body must be,
byte for byte, what ProductPageSchema would dump."""
import pytest

from app.services.finder import search_products
from schemas.finder import ProductPageSchema, product_page_body
from tests.finder.data import DOMAIN, finder_bundle

SHAPES = [([], None, 0), ([{"id": "BRAND", "value_ids": ["61828"]}], {"attribute_id": "FUEL_TYPE", "order": "DESC"}, 0),
          ([{"id": "MODEL", "value_ids": ["62200"]}], None, 0), ([], None, 10_000)]


@pytest.mark.parametrize("known, sort, offset", SHAPES)
def test_page_body_is_the_schemas_dump(app, load_bundle, run_db, known, sort, offset):
    load_bundle(finder_bundle())
    page = run_db(search_products, DOMAIN, "MLA", known, 50, offset, sort)
    with app.app_context():
        dumped = app.json.response(ProductPageSchema().dump(page)).get_data()
        written = app.json.response(product_page_body(page)).get_data()
    assert written == dumped
