"""Writing a validated bundle, one function per section: bulk upserts keyed by id (or by the
record's natural key), children of replaced records deleted and rewritten in chunks."""
from app.models import (
    Application,
    Category,
    CategoryRule,
    CompatibilityDomain,
    CompatibilityRule,
    Currency,
    Domain,
    Product,
    ProductAttribute,
    RestrictionAttribute,
    RestrictionValue,
    Site,
    User,
)
from app.models.base import utcnow
from app.services.auth import tokens as auth
from app.services.bundle.bulk import indexes_rebuilt
from app.services.bundle.lookup import chunks
from app.services.bundle.sql import delete_in, insert_rows, select_in
from app.services.catalog.text_normalize import value_key
from app.services.finder import facet_changes


def upsert(model, fields, rows, key, keep_when_missing=()):
    """Upsert rows by `key` (field names); a field of `keep_when_missing` that is None in a row
    keeps the stored value (or gets now() when the row is new), so a re-import changes nothing.

    Under a one-field key, the rows whose key is not stored yet are plain INSERTs (COPY on
    PostgreSQL), since psycopg runs an upsert of many rows as one statement per row (10,000 new
    items took about 3 s that way). Such a key must not repeat within `rows`, or the INSERT fails:
    the bundle's validation refuses repeats of every such section's key (refs.KEYS)."""
    stored = None
    if len(key) == 1 and rows:
        key_at = fields.index(key[0])
        stored = {k for (k,) in select_in(model, key, key[0], [row[key_at] for row in rows])}
    new, groups = [], {}
    now = utcnow()
    positions = {name: fields.index(name) for name in keep_when_missing}
    for row in rows:
        missing = tuple(name for name, at in positions.items() if row[at] is None)
        if missing:
            row = list(row)
            for name in missing:
                row[positions[name]] = now
            row = tuple(row)
        if stored is not None and row[key_at] not in stored:
            new.append(row)
        else:
            groups.setdefault(missing, []).append(row)
    insert_rows(model, fields, new)
    columns = [getattr(model, name) for name in fields]
    target = [getattr(model, name) for name in key]
    for missing, group in groups.items():
        preserve = [c for c, name in zip(columns, fields, strict=True) if name not in key and name not in missing]
        insert_rows(model, columns, group, target, preserve)


def load_currencies(records, ctx):
    upsert(Currency, ["id", "description", "symbol", "decimal_places"],
           [(r["id"], r["description"], r["symbol"], r["decimal_places"]) for r in records], ["id"])


def load_sites(records, ctx):
    upsert(Site, ["id", "name", "default_currency_id", "language"],
           [(r["id"], r["name"], r["default_currency_id"], r.get("language") or "es") for r in records], ["id"])


def load_users(records, ctx):
    upsert(User, ["id", "nickname", "site"], [(r["id"], r["nickname"], r.get("site_id")) for r in records], ["id"])
    for r in records:
        for token in r.get("access_tokens") or ():
            auth.store_access_token(r["id"], token)


def load_applications(records, ctx):
    with_secret, without = [], []
    for r in records:
        secret_hash = auth.digest(r["client_secret"]) if r.get("client_secret") else r.get("client_secret_sha256")
        if secret_hash:
            with_secret.append((r["client_id"], secret_hash, r["owner_id"], r.get("redirect_uri")))
        else:
            without.append(r)
    upsert(Application, ["client_id", "secret_hash", "owner", "redirect_uri"], with_secret, ["client_id"])
    for r in without:  # the stored secret is kept; few applications, so one UPDATE each
        Application.update(owner=r["owner_id"], redirect_uri=r.get("redirect_uri")).where(
            Application.client_id == r["client_id"]).execute()


def load_domains(records, ctx):
    upsert(Domain, ["id", "site", "name", "attributes"],
           [(r["id"], r["site_id"], r["name"], r.get("attributes") or []) for r in records], ["id"])


def load_categories(records, ctx):
    upsert(Category, ["id", "site", "name", "domain"],
           [(r["id"], r["site_id"], r["name"], r.get("domain_id")) for r in records], ["id"])


def load_domain_compatibilities(records, ctx):
    """Rules and category rules are upserted by their natural keys and the ones the entry no
    longer lists are deleted, so unchanged rows keep their ids."""
    upsert(CompatibilityDomain, ["domain", "main"], [(r["domain_id"], r["main"]) for r in records], ["domain"])
    rules = [(r["domain_id"], rule["compatible_domain_id"], rule["type"], rule["required"],
              rule["restrictions"], n) for r in records for n, rule in enumerate(r["compatibilities"])]
    upsert(CompatibilityRule, ["domain", "compatible_domain", "type", "required", "restrictions", "position"],
           rules, ["domain", "compatible_domain"])
    domain_ids = [r["domain_id"] for r in records]
    rule_ids = {}
    for chunk in chunks(domain_ids):
        query = CompatibilityRule.select(CompatibilityRule.id, CompatibilityRule.domain,
                                         CompatibilityRule.compatible_domain).where(
            CompatibilityRule.domain.in_(chunk)).tuples()
        rule_ids.update({(domain, other): rule_id for rule_id, domain, other in query})
    wanted = {(r[0], r[1]) for r in rules}
    delete_in(CompatibilityRule, "id", [i for k, i in rule_ids.items() if k not in wanted])
    category_rows, kept = [], {}
    for r in records:
        for rule in r["compatibilities"]:
            rule_id = rule_ids[(r["domain_id"], rule["compatible_domain_id"])]
            kept[rule_id] = {c["id"] for c in rule["categories"]}
            category_rows += [(rule_id, c["id"], c["required"], c["note_status"], c["restrictions_status"],
                               c["universal_status"], n) for n, c in enumerate(rule["categories"])]
    upsert(CategoryRule, ["rule", "category", "required", "note_status", "restrictions_status",
                          "universal_status", "position"], category_rows, ["rule", "category"])
    stale = []
    for chunk in chunks(kept):
        query = CategoryRule.select(CategoryRule.id, CategoryRule.rule, CategoryRule.category).where(
            CategoryRule.rule.in_(chunk)).tuples()
        stale += [row_id for row_id, rule_id, category in query if category not in kept[rule_id]]
    delete_in(CategoryRule, "id", stale)


def load_restriction_values(records, ctx):
    """Attributes and values keep their auto ids (the API's attribute_code and value_code):
    upserted by natural key, and only the ones the entry no longer lists are deleted."""
    attributes = [(r["main_domain_id"], r["secondary_domain_id"], a["attribute_id"], n)
                  for r in records for n, a in enumerate(r["attributes_values"])]
    upsert(RestrictionAttribute, ["main_domain", "secondary_domain", "attribute_id", "position"], attributes,
           ["main_domain", "secondary_domain", "attribute_id"])
    pairs = {(r["main_domain_id"], r["secondary_domain_id"]) for r in records}
    attribute_ids = {}
    for chunk in chunks({p[0] for p in pairs}):
        query = RestrictionAttribute.select(
            RestrictionAttribute.id, RestrictionAttribute.main_domain, RestrictionAttribute.secondary_domain,
            RestrictionAttribute.attribute_id).where(RestrictionAttribute.main_domain.in_(chunk)).tuples()
        attribute_ids.update({(m, s, a): i for i, m, s, a in query if (m, s) in pairs})
    wanted = {a[:3] for a in attributes}
    delete_in(RestrictionAttribute, "id",
              [i for k, i in attribute_ids.items() if k not in wanted])
    values, kept = [], {}
    for r in records:
        for a in r["attributes_values"]:
            attribute_id = attribute_ids[(r["main_domain_id"], r["secondary_domain_id"], a["attribute_id"])]
            kept[attribute_id] = {v["value_id"] for v in a["values"]}
            values += [(attribute_id, v["value_id"], v["value_name"], n) for n, v in enumerate(a["values"])]
    upsert(RestrictionValue, ["attribute", "value_id", "value_name", "position"], values, ["attribute", "value_id"])
    stale = []
    for chunk in chunks(kept):
        query = RestrictionValue.select(RestrictionValue.id, RestrictionValue.attribute,
                                        RestrictionValue.value_id).where(RestrictionValue.attribute.in_(chunk))
        stale += [i for i, attribute_id, value_id in query.tuples() if value_id not in kept[attribute_id]]
    delete_in(RestrictionValue, "id", stale)


def load_products(records, ctx):
    """Products and their attribute rows. Only the products that differ from the stored ones
    are written, so re-importing a large unchanged catalog costs reads, not rewrites."""
    products = {r["id"]: (r["domain_id"], ctx.site_of_product(r), r["name"], r.get("parent_id")) for r in records}
    # A catalog repeats its value names (brands, years) across products: each is folded once.
    keys = {name: value_key(name) for name in {a.get("value_name") for r in records for a in r["attributes"]}}
    attributes = {r["id"]: [(r["domain_id"], r.get("parent_id") is not None, a["id"], a.get("value_id"),
                             a.get("value_name"), keys[a.get("value_name")], n)
                            for n, a in enumerate(r["attributes"])] for r in records}
    stored_products, stored_attributes = _stored_products(list(products))
    # The finder's counts of every domain that gained, lost or changed a product (a moved product
    # changes two), from the changed products' rows; an unchanged re-import counts nothing.
    changed = [pid for pid, row in products.items()
               if stored_products.get(pid) != row or stored_attributes.get(pid) != attributes[pid]]
    counts = facet_changes.plan({pid: (_facet_state(stored_products.get(pid), stored_attributes.get(pid, ())),
                                       _facet_state(products[pid], attributes[pid])) for pid in changed})
    product_fields = ["id", "domain", "site", "name", "parent_id"]
    new_rows = [(pid, *row) for pid, row in products.items() if pid not in stored_products]
    with indexes_rebuilt(Product, len(new_rows)):
        insert_rows(Product, product_fields, new_rows)
    upsert(Product, product_fields, [(pid, *row) for pid, row in products.items()
                                     if pid in stored_products and stored_products[pid] != row], ["id"])
    _write_attributes(attributes, stored_attributes)
    facet_changes.apply(counts)


def _facet_state(product, attribute_rows):
    """(domain_id, is a child, attribute rows) of a product for the finder's counts; None for none."""
    return None if product is None else (product[0], product[3] is not None, attribute_rows)


ATTRIBUTE_FIELDS = ["product", "domain_id", "is_child", "attribute_id", "value_id", "value_name", "value_key",
                    "position"]


def _write_attributes(attributes, stored_attributes):
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
                changed_rows += [(pid, *row) for row in rows if by_attribute.get(row[2]) != row]
    delete_in(ProductAttribute, "product", replaced)
    rows = [(pid, *row) for pid in fresh + replaced for row in attributes[pid]]
    with indexes_rebuilt(ProductAttribute, len(rows)):  # before the upsert, whose key is an index
        insert_rows(ProductAttribute, ATTRIBUTE_FIELDS, rows)
    upsert(ProductAttribute, ATTRIBUTE_FIELDS, changed_rows, ["product", "attribute_id"])


def _stored_products(ids):
    products = {pid: tuple(rest) for pid, *rest in select_in(
        Product, ["id", "domain", "site", "name", "parent_id"], "id", ids)}
    attributes = {}
    rows = select_in(ProductAttribute, ["product", "domain_id", "is_child", "attribute_id", "value_id", "value_name",
                                        "value_key", "position"], "product", ids, order_by=["product", "position"])
    for pid, domain_id, is_child, *rest in rows:
        attributes.setdefault(pid, []).append((domain_id, bool(is_child), *rest))
    return products, attributes
