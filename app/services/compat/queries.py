"""The compatibility queries every list (endpoint 12) runs, prepared (app.prepared_sql.prepared): compiled
by peewee once, run with each request's values; the list's rows are read from the cursor as
dicts, without building model instances."""
import json

from peewee import JOIN, OP, SQL, Case, Expression, Select, fn

from app.db import db, is_postgres
from app.models import AttributeScope, Claim, Compatibility, Domain, Item, Order, Product, ProductAttribute, Suggestion
from app.models.uuid_keys import key_text
from app.prepared_rows import prepared_instances
from app.prepared_sql import execute_prepared, param
from schemas.vocabulary import CATALOGO


def _entries(paged=False):
    """The columns an answer shows of each compatibility, with its vehicle's id, name and domain,
    read from the product row the compatibility's product key finds.

    Never a plain join: PostgreSQL then hashed the whole product table whenever it expected many
    rows (a generic plan, or a small catalog), to name a few hundred entries. There a LATERAL
    subquery, kept from being flattened into such a join by OFFSET 0, probes the key's unique index
    once per row of the item; a page (`paged`) reads the three columns by correlated subqueries
    instead, which PostgreSQL computes after the sort, for the rows up to the page's end only (the
    lateral one would probe every row of the item). SQLite runs the LEFT JOIN as a loop over the
    compatibilities, probing the index for each."""
    vehicle = Product.alias("vehicle")
    if is_postgres() and paged:
        found = {}
        for column in ("id", "name", "domain"):
            alias = Product.alias(f"vehicle_{column}")
            found[column] = alias.select(getattr(alias, column)).where(alias.key == Compatibility.product)
        query = Compatibility.select(Compatibility.id, found["domain"].alias("domain_id"),
                                     found["id"].alias("vehicle_id"), found["name"].alias("product_name"))
    elif is_postgres():
        found = (vehicle.select(vehicle.id, vehicle.name, vehicle.domain)
                 .where(vehicle.key == Compatibility.product).offset(0).alias("found"))
        query = (Compatibility.select(Compatibility.id, found.c.domain_id.alias("domain_id"),
                                      found.c.id.alias("vehicle_id"), found.c.name.alias("product_name"))
                 .join(found, JOIN.LEFT_LATERAL, on=SQL("true")))
    else:
        query = (Compatibility.select(Compatibility.id, vehicle.domain.alias("domain_id"),
                                      vehicle.id.alias("vehicle_id"), vehicle.name.alias("product_name"))
                 .join(vehicle, JOIN.LEFT_OUTER, on=(vehicle.key == Compatibility.product)))
    return query.select_extend(Compatibility.source, Compatibility.note, Compatibility.note_status,
                               Compatibility.restrictions, Compatibility.universal).dicts()


def entry_row(item_key, compatibility_id):
    """One compatibility of the item (by its key) as a dict of the columns answers show, or None."""
    return _entries().where(Compatibility.id == compatibility_id, Compatibility.item == item_key).first()


def _with_claims(query):
    """The query's compatibilities with `claims`: the claims on the item's orders of that vehicle
    (as claims_by_product counts them; None for none), joined instead of read apart. The orders
    name the vehicle by its text id: the product row gives its key, which the compatibility names."""
    vehicle = Product.alias("claimed_vehicle")
    claimed = (Order.select(vehicle.key.alias("claimed_product"), fn.COUNT(Claim.id).alias("claims"))
               .join(Claim, on=(Claim.order == Order.id))
               .join(vehicle, on=(vehicle.id == Order.snapshot_product_id))
               .where(Order.item == param("item"))
               .group_by(vehicle.key)).alias("claimed")
    return query.select_extend(claimed.c.claims).join(
        claimed, JOIN.LEFT_OUTER, on=(claimed.c.claimed_product == Compatibility.product), src=Compatibility)


def list_rows(item, limit=None, offset=None, claims=False):
    """The compatibilities of `item` (its row), oldest first, as dicts of the columns answers show
    (with `claims` when asked): all of them, the universal setting's row included (so that the
    list's totals need no query of their own, list_totals), or the page at (offset, limit) of the
    others when limit is given."""
    paged = limit is not None

    def build():
        query = _entries(paged).where(Compatibility.item == param("key"))
        if paged:
            query = query.where(Compatibility.universal == False)  # noqa: E712
        query = (_with_claims(query) if claims else query).order_by(Compatibility.date_created, Compatibility.product)
        return query.limit(param("limit")).offset(param("offset")) if paged else query
    cursor = execute_prepared(("compat_list_rows", paged, claims), build,
                              {"key": item.key, "item": item.id, "limit": limit, "offset": offset})
    names = [column[0] for column in cursor.description]
    decode, source = Compatibility.restrictions.python_value, Compatibility.source.python_value
    # fetchall: psycopg 3 loads the rows in one call; iterating its cursor checks the result and
    # loads one row per call in Python, a visible cost on a long list.
    for values in cursor.fetchall():
        row = dict(zip(names, values, strict=True))
        row["restrictions"], row["source"] = decode(row["restrictions"]), source(row["source"])
        yield row


def list_totals(item_key):
    """(non-universal count, CATALOGO count, universal setting's id or None) of the item (its key),
    in one query."""
    def build():
        # PostgreSQL has no max() of uuid; the id's text is the same value.
        universal_id = Compatibility.id.cast("text") if is_postgres() else Compatibility.id
        return Compatibility.select(
            fn.SUM(Case(None, [(Compatibility.universal == False, 1)], 0)),  # noqa: E712
            fn.SUM(Case(None, [(Compatibility.source == CATALOGO, 1)], 0)),
            fn.MAX(Case(None, [(Compatibility.universal == True, universal_id)], None))  # noqa: E712
        ).where(Compatibility.item == param("item"))
    counted, catalogo, universal_id = execute_prepared("compat_list_totals", build, {"item": item_key}).fetchone()
    return counted, catalogo, key_text(universal_id)  # an expression's value: no column type converts it


def claims_by_product(item_id):
    """{product_id: claims_count} for the claims on this item's orders, by the vehicle chosen.

    Products the item has no compatibility with are included too; callers join them to
    the compatibilities they show.
    """
    cursor = execute_prepared("claims_by_product", lambda: (
        Order.select(Order.snapshot_product_id, fn.COUNT(Claim.id))
        .join(Claim, on=(Claim.order == Order.id))
        .where(Order.item == param("item"), Order.snapshot_product_id.is_null(False))
        .group_by(Order.snapshot_product_id)), {"item": item_id})
    return dict(cursor.fetchall())


def _matching(column, params):
    return column == params[0] if len(params) == 1 else column.in_(params)


def _family_values(pa, a, n_ids, n_keys):
    """The a-th attribute's value test on `pa`: params `a{a}id{k}` and `a{a}key{k}` (its value ids
    and value keys)."""
    condition = None
    if n_ids:
        condition = _matching(pa.value_id, [param(f"a{a}id{k}") for k in range(n_ids)])
    if n_keys:
        by_key = _matching(pa.value_key, [param(f"a{a}key{k}") for k in range(n_keys)])
        condition = by_key if condition is None else (condition | by_key)
    return condition


def _family_rows(pa, a, n_ids, n_keys):
    """The ProductAttribute rows (in `pa`) of the a-th attribute of a family: params `domain`,
    `a{a}` (the attribute id) and the values of _family_values. The scope is a scalar subquery,
    run once per statement."""
    scope = AttributeScope.alias(f"scope{a}")
    scope_id = scope.select(scope.id).where((scope.domain_id == param("domain"))
                                            & (scope.is_child == True)  # noqa: E712
                                            & (scope.attribute_id == param(f"a{a}")))
    return (pa.scope == scope_id) & _family_values(pa, a, n_ids, n_keys)


def family_probes(shape, values, probe):
    """None when the domain does not exist, else the rows each attribute of the family selects,
    counted up to `probe` (none for a single attribute, which needs no ranking): the domain check
    and the selectivity probes in one statement. `shape` holds per attribute (number of value ids,
    number of value keys); `values` the params."""
    def build():
        columns = [Domain.id]
        for a, (n_ids, n_keys) in enumerate(shape if len(shape) > 1 else ()):
            pa = ProductAttribute.alias(f"probe{a}")
            rows = pa.select(SQL("1")).where(_family_rows(pa, a, n_ids, n_keys)).limit(probe)
            columns.append(ProductAttribute.select(fn.COUNT(SQL("1"))).from_(rows.alias(f"probed{a}")))
        return Domain.select(*columns).where(Domain.id == param("domain"))
    row = execute_prepared(("family_probes", shape, probe), build, values).fetchone()
    return None if row is None else list(row[1:])


def _family_query(shape, order, *columns):
    """SELECT `columns` of the rows of the family's attribute order[0] (the most selective), each
    product's other attributes tested by a correlated subquery, one lookup in the unique
    (product key, attribute_id) index each (a product's rows share its domain and child flag).

    Not a join: the statement is prepared, and PostgreSQL's generic plan cannot tell a model from a
    brand, so it merge-joined the brand's whole index range where the subqueries read only the model's
    rows."""
    base = ProductAttribute.alias("fa0")
    query = base.select(*columns).where(_family_rows(base, order[0], *shape[order[0]]))
    for n, a in enumerate(order[1:], 1):
        pa = ProductAttribute.alias(f"fa{n}")
        match = pa.select(SQL("1")).where((pa.product == base.product) & (pa.attribute_id == param(f"a{a}"))
                                          & _family_values(pa, a, *shape[a]))
        query = query.where(Expression(match, OP.IS_NOT, None))
    return base, query


def family_count(shape, order, values):
    """The number of child products a family selects (`order`: its attributes, most selective first)."""
    return execute_prepared(("family_count", shape, order),
                            lambda: _family_query(shape, order, fn.COUNT(1))[1], values).fetchone()[0] or 0


def family_products(shape, order, values, limit):
    """{product id: key} of up to `limit` child products a family selects (in no set order: a
    caller that gets `limit` of them only learns that the family is too large)."""
    def build():
        base, query = _family_query(shape, order)
        product = Product.alias("selected")
        return (query.select(product.id, base.product).join(product, on=(product.key == base.product))
                .limit(param("limit")))
    cursor = execute_prepared(("family_products", shape, order), build, {**values, "limit": limit})
    return dict(cursor.fetchall())


# What every write of an item runs: prepared, as the bulk jobs' consumers run them for each item.

def locked_item(item_id):
    """The item row, or None; on PostgreSQL locked until the transaction ends (SQLite's write
    transaction holds the database's write lock already)."""
    def build():
        query = Item.select().where(Item.id == param("id"))
        return query.for_update() if is_postgres() else query
    return next(iter(prepared_instances(Item, "compat_locked_item", build, {"id": item_id})), None)


def _among(column, name):
    """`column` is one of the list param `name` (see _list): one statement whatever the list's length."""
    if is_postgres():
        return Expression(column, OP.EQ, fn.ANY(param(name)))
    return column.in_(Select([fn.json_each(param(name))], [SQL("value")]))


def _list(values):
    return list(values) if is_postgres() else json.dumps(list(values))


def item_product_keys_among(item_key, product_keys):
    """The keys among `product_keys` of the products the item (its key) has a compatibility with:
    probes of the (item, product) unique index, no product read."""
    def build():
        return (Compatibility.select(Compatibility.product)
                .where(Compatibility.item == param("item"), _among(Compatibility.product, "products")))
    return {key for (key,) in execute_prepared(
        "compat_item_product_keys_among", build, {"item": item_key, "products": _list(product_keys)}).fetchall()}


def delete_suggestions(item_id, product_ids):
    """Deletes the item's suggestions of these products."""
    execute_prepared("compat_delete_suggestions", lambda: Suggestion.delete().where(
        Suggestion.item == param("item"), _among(Suggestion.product_id, "products")),
        {"item": item_id, "products": _list(product_ids)})


def compatibility_counts(item_key):
    """[(universal, count)] of the item's compatibilities (the item by its key)."""
    return execute_prepared("compat_counts_by_universal", lambda: Compatibility.select(
        Compatibility.universal, fn.COUNT(Compatibility.id)).where(Compatibility.item == param("item"))
        .group_by(Compatibility.universal), {"item": item_key}).fetchall()


def compatibility_count(item_key):
    """The number of the item's compatibilities (the item by its key)."""
    return execute_prepared("compat_count", lambda: Compatibility.select(fn.COUNT(SQL("*"))).where(
        Compatibility.item == param("item")), {"item": item_key}).fetchone()[0]


def refresh_item(item_id, build):
    """Runs item_state's UPDATE of one item's derived columns, `build(condition)` given the test of
    the item's id; answers the rows it changed (0 or 1)."""
    return execute_prepared("compat_refresh_item", lambda: build(param("id")), {"id": item_id}).rowcount


# A part's typical number of compatibilities (a hundred: from a handful to hundreds of thousands), as
# PostgreSQL's n_distinct: the items are that share of the rows.
ITEM_SHARE = -0.01


def ensure_item_statistics():
    """PostgreSQL: the planner counts the compatibilities' items as ITEM_SHARE of the rows (kept by
    every later ANALYZE), not as ANALYZE counts them. Its sample reads whole pages, and a table
    written item by item holds one or two items a page, so it sees a small fraction of the items
    stored: a summary of many items then expected most of the table and read it whole, where the
    item index reads only their rows."""
    if is_postgres():
        db.execute_sql(f'ALTER TABLE "compatibility" ALTER COLUMN "item_key" SET (n_distinct = {ITEM_SHARE})')
