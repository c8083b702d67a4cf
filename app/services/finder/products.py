"""Catalog products as the finder answers them (F3's results, F4): id, name, parent and attributes
with their values, read for a whole page in two queries."""
from dataclasses import dataclass, field

from app.errors import ApiError
from app.models import Product
from app.services.finder import queries
from app.services.finder.domains import require_domain


@dataclass(slots=True)
class Value:
    id: str
    name: str


@dataclass(slots=True)
class AttributeValues:
    id: str
    name: str
    values: list


@dataclass(slots=True)
class FinderProduct:
    id: str
    name: str
    domain_id: str
    site_id: str
    parent_id: str
    attributes: list = field(default_factory=list)  # AttributeValues, in the product's order


def get_product(product_id):
    """F4: one product (parent or child), or 404 `not_found`."""
    row = Product.get_or_none(Product.id == product_id)
    if row is None:
        raise ApiError("not_found", f"Product {product_id} does not exist")
    return products_by_key([row.key], require_domain(row.domain_id).attribute_names())[0]


def products_by_key(keys, attribute_names):
    """The products of `keys`, in that order; attributes named as the domain names them (their id
    when the domain does not describe them)."""
    if not keys:
        return []
    products = {}
    for key, product_id, name, domain_id, site_id, parent_id, attribute_id, value_id, value_name \
            in queries.products(keys):
        product = products.get(key)
        if product is None:
            product = products[key] = FinderProduct(product_id, name, domain_id, site_id, parent_id, [])
        if attribute_id is not None:
            product.attributes.append(AttributeValues(
                attribute_id, attribute_names.get(attribute_id, attribute_id), [Value(value_id, value_name)]))
    return [products[k] for k in keys if k in products]
