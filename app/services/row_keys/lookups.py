"""Query expressions between the text ids callers name items and products by and the integer keys
the compatibilities store (queries.py). Scalar subqueries, not joins: each is one probe of a unique
index, which a prepared statement's generic plan keeps (PostgreSQL runs an uncorrelated one once per
statement)."""
from app.models import Item, Product


def product_key_of(product_id):
    """The key of the product `product_id` (a value or a param), as an expression."""
    product = Product.alias("keyed_product")
    return product.select(product.key).where(product.id == product_id)


def product_keys_of(product_ids):
    """The keys of the products `product_ids` (a list, or an expression selecting ids), for IN."""
    product = Product.alias("keyed_products")
    return product.select(product.key).where(product.id.in_(product_ids))


def product_id_of(key_column, alias="keyed_vehicle"):
    """The text id of the product whose key is `key_column` (correlated), as an expression."""
    product = Product.alias(alias)
    return product.select(product.id).where(product.key == key_column)


def item_id_of(key_column, alias="keyed_owner"):
    """The text id of the item whose key is `key_column` (correlated), as an expression."""
    item = Item.alias(alias)
    return item.select(item.id).where(item.key == key_column)
