"""Writing a bundle's products: the products and their attribute rows, only those that differ from
the stored ones, and the finder's counts of the domains they change."""
from operator import itemgetter

from app.models import AttributeScope, Product, ProductAttribute
from app.services.bundle.bulk import indexes_rebuilt
from app.services.bundle.load import upsert
from app.services.bundle.sql import delete_in, insert_rows, select_in
from app.services.catalog.text_normalize import value_key
from app.services.finder import facet_changes
from app.services.row_keys.order import new_product_keys
from app.services.row_keys.queries import keys_given


def load_products(records, ctx):
    """Products and their attribute rows. Only the products that differ from the stored ones
    are written, so re-importing a large unchanged catalog costs reads, not rewrites."""
    # Rows as they are written and read back (ids first), so that each is built once.
    products = {r["id"]: (r["id"], r["domain_id"], ctx.site_of_product(r), r["name"], r.get("parent_id"))
                for r in records}
    # A catalog repeats its value names (brands, years) across products: each is folded once.
    keys = {name: value_key(name) for name in {a.get("value_name") for r in records for a in r["attributes"]}}
    stored_products, product_keys, stored_attributes = _stored_products(list(products))
    # The attribute rows name their product by its key: a stored product's, or the next ones, drawn
    # before the rows are built so that each is built once.
    new_keys = new_product_keys({pid: row[1] for pid, row in products.items() if pid not in stored_products},
                                {row[1] for pid, row in products.items()
                                 if pid in stored_products and stored_products[pid][1] != row[1]})
    product_keys.update(new_keys)
    scopes, attributes = _scopes(records), {}
    for r in records:
        pid, scope = r["id"], scopes[(r["domain_id"], r.get("parent_id") is not None)]
        product_key = product_keys[pid]
        attributes[pid] = [(product_key, scope[a["id"]], a["id"], a.get("value_id"), a.get("value_name"),
                            keys[a.get("value_name")], n) for n, a in enumerate(r["attributes"])]
    # The finder's counts of every domain that gained, lost or changed a product (a moved product
    # changes two), from the changed products' rows; an unchanged re-import counts nothing.
    changed = [pid for pid, row in products.items()
               if stored_products.get(pid) != row or stored_attributes.get(pid) != attributes[pid]]
    counts = facet_changes.plan({product_keys[pid]: (
        _facet_state(stored_products.get(pid), stored_attributes.get(pid, ())),
        _facet_state(products[pid], attributes[pid])) for pid in changed})
    new_rows = [(*products[pid], key) for pid, key in new_keys.items()]
    with indexes_rebuilt(Product, len(new_rows)), keys_given(Product, len(new_rows)):
        insert_rows(Product, [*PRODUCT_FIELDS, "key"], new_rows)
    upsert(Product, PRODUCT_FIELDS, [row for pid, row in products.items()
                                     if pid in stored_products and stored_products[pid] != row], ["id"])
    _write_attributes(attributes, stored_attributes, product_keys)
    facet_changes.apply(counts)


_ID = itemgetter("id")


def _scopes(records):
    """{(domain_id, is a child): {attribute_id: scope id}} of the products' attributes; the scopes
    not stored yet are added (a concurrent import may add the same ones: theirs are kept)."""
    wanted = {}
    for r in records:
        kind = (r["domain_id"], r.get("parent_id") is not None)
        wanted.setdefault(kind, set()).update(map(_ID, r["attributes"]))
    fields = ["id", "domain_id", "is_child", "attribute_id"]
    stored = {}

    def read():
        for scope_id, domain_id, is_child, attribute_id in select_in(AttributeScope, fields, "domain_id",
                                                                      {d for d, _ in wanted}):
            stored.setdefault((domain_id, bool(is_child)), {})[attribute_id] = scope_id
    read()
    missing = [(*kind, a) for kind, ids in wanted.items() for a in sorted(ids - stored.get(kind, {}).keys())]
    if missing:
        insert_rows(AttributeScope, fields[1:], missing, ignore=True)
        read()
    return {kind: stored.get(kind, {}) for kind in wanted}


def _facet_state(product, attribute_rows):
    """(domain_id, is a child, attribute rows) of a product for the finder's counts; None for none."""
    return None if product is None else (product[1], product[4] is not None, attribute_rows)


PRODUCT_FIELDS = ["id", "domain", "site", "name", "parent_id"]
ATTRIBUTE_FIELDS = ["product", "scope", "attribute_id", "value_id", "value_name", "value_key", "position"]


def _write_attributes(attributes, stored_attributes, product_keys):
    """Rewrite only what changed: a product that lost attributes gets all its rows replaced;
    otherwise its new or changed rows are upserted by (product, attribute_id) and the rest stay,
    which for a typical catalog revision writes a fraction of the rows."""
    fresh, replaced, changed_rows = [], [], []
    for pid, rows in attributes.items():
        stored = stored_attributes.get(pid)
        if stored is None:
            fresh.append(pid)
        elif stored != rows:
            by_attribute = {row[2]: row for row in stored}
            if by_attribute.keys() - {row[2] for row in rows}:
                replaced.append(pid)
            else:
                changed_rows += [row for row in rows if by_attribute.get(row[2]) != row]
    delete_in(ProductAttribute, "product", [product_keys[pid] for pid in replaced])
    rows = [row for pid in fresh + replaced for row in attributes[pid]]
    with indexes_rebuilt(ProductAttribute, len(rows)):  # before the upsert, whose key is an index
        insert_rows(ProductAttribute, ATTRIBUTE_FIELDS, rows)
    upsert(ProductAttribute, ATTRIBUTE_FIELDS, changed_rows, ["product", "attribute_id"])


def _stored_products(ids):
    """({id: product row}, {id: key}, {id: attribute rows}) of the stored products among `ids`."""
    products, keys = {}, {}
    for *row, key in select_in(Product, [*PRODUCT_FIELDS, "key"], "id", ids):
        products[row[0]], keys[row[0]] = tuple(row), key
    ids_by_key = {key: pid for pid, key in keys.items()}
    attributes = {}
    for row in select_in(ProductAttribute, ATTRIBUTE_FIELDS, "product", list(ids_by_key),
                         order_by=["product", "position"]):
        attributes.setdefault(ids_by_key[row[0]], []).append(tuple(row))
    return products, keys, attributes
