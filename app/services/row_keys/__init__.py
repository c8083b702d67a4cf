"""Integer keys the database gives items and products when they are first stored (queries.py holds
their SQL, for the schema and the imports), and the query expressions between them and text ids."""
from app.services.row_keys.lookups import item_id_of, product_id_of, product_key_of, product_keys_of

__all__ = ["item_id_of", "product_id_of", "product_key_of", "product_keys_of"]
