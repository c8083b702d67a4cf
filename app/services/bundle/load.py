"""Writing the sections whose records are upserted by key (by id, or by the record's natural key),
children of replaced records deleted and rewritten in chunks; products and compatibilities, which
are compared with the stored rows first, have modules of their own."""
import json

from app.models import (
    Application,
    Category,
    CategoryRule,
    Chart,
    ChartDomain,
    ChartFilterValue,
    ChartRow,
    Claim,
    CompatibilityDomain,
    CompatibilityException,
    CompatibilityRule,
    Currency,
    Domain,
    DomainDiscoveryTerm,
    Item,
    Order,
    RestrictionAttribute,
    RestrictionValue,
    Site,
    Suggestion,
    TechnicalSpec,
    User,
)
from app.models.base import utcnow
from app.services.auth import tokens as auth
from app.services.bundle.lookup import chunks
from app.services.bundle.references import chart_row_ids
from app.services.bundle.sql import delete_in, insert_rows, select_in
from app.services.notifications import applications as notifications


def upsert(model, fields, rows, key, keep_when_missing=()):
    """Upsert rows by `key` (field names); a field of `keep_when_missing` that is None in a row
    keeps the stored value (or gets now() when the row is new), so a re-import changes nothing.

    Under a one-field key, the rows whose key is not stored yet are plain INSERTs (COPY on
    PostgreSQL), since psycopg runs an upsert of many rows as one statement per row. Such a key
    must not repeat within `rows`, or the INSERT fails: the bundle's validation refuses repeats of
    every section's key (Section.key)."""
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
    notifications.load_subscriptions(records)


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


ITEM_FIELDS = ["id", "site", "title", "seller", "category", "domain", "status", "price", "currency_id",
               "official_store_id", "warranty", "catalog_product_id", "parent_item_id", "deal_ids",
               "automatic_relist", "catalog_listing", "health", "date_created", "last_updated", "attributes"]
ITEM_KEYS = ["id", "site_id", "title", "seller_id", "category_id", "domain_id", "status", "price", "currency_id",
             "official_store_id", "warranty", "catalog_product_id", "parent_item_id", "deal_ids",
             "automatic_relist", "catalog_listing", "health", "date_created", "last_updated", "attributes"]


def load_items(records, ctx):
    upsert(Item, ITEM_FIELDS, [tuple(r.get(k) for k in ITEM_KEYS) for r in records], ["id"],
           keep_when_missing=("date_created", "last_updated"))


def load_suggestions(records, ctx):
    upsert(Suggestion, ["item", "product_id", "date_created"],
           [(r["item_id"], r["product_id"], r.get("date_created")) for r in records], ["item", "product_id"],
           keep_when_missing=("date_created",))


def load_exceptions(records, ctx):
    upsert(CompatibilityException, ["item", "comment", "date_created"],
           [(r["item_id"], r["comment"], r.get("date_created")) for r in records], ["item"],
           keep_when_missing=("date_created",))


def load_orders(records, ctx):
    rows = [(r["id"], r["item_id"], r.get("buyer_id"), r.get("date_created"), r.get("snapshot"),
             (r.get("snapshot") or {}).get("product_id")) for r in records]
    upsert(Order, ["id", "item", "buyer_id", "date_created", "snapshot", "snapshot_product_id"], rows, ["id"],
           keep_when_missing=("date_created",))


def load_claims(records, ctx):
    """Answers the orders whose claims changed in number (a claim new, or moved to another order):
    the reputation the compatibility list shows counts them, the reason and date it does not."""
    stored = dict(select_in(Claim, ["id", "order"], "id", [r["id"] for r in records]))
    upsert(Claim, ["id", "order", "reason", "date_created"],
           [(r["id"], r["order_id"], r["reason"], r.get("date_created")) for r in records], ["id"],
           keep_when_missing=("date_created",))
    moved = [(stored.get(r["id"]), r["order_id"]) for r in records if stored.get(r["id"]) != r["order_id"]]
    return sorted({order_id for pair in moved for order_id in pair if order_id is not None})


def load_chart_domains(records, ctx):
    insert_rows(ChartDomain, [ChartDomain.site, ChartDomain.domain],
                [(r["site_id"], r["domain_id"]) for r in records], ignore=True)


def when_key(when):
    """The canonical text of a sheet's `when` (sorted keys, compact), unique per (domain, section)."""
    return json.dumps(when or {}, sort_keys=True, separators=(",", ":"))


def load_technical_specs(records, ctx):
    upsert(TechnicalSpec, ["domain", "section", "when_key", "when", "input", "output"],
           [(r["domain_id"], r["section"], when_key(r["when"]), r["when"], r["input"], r["output"])
            for r in records], ["domain", "section", "when_key"])


def load_charts(records, ctx):
    upsert(Chart, ["id", "site", "domain_id", "type", "seller_id", "main_attribute_id", "secondary_attribute_id",
                   "measure_type", "names", "attributes", "date_created"],
           [(r["id"], r["site_id"], r["domain_id"], r["type"], r.get("seller_id"), r["main_attribute_id"],
             r.get("secondary_attribute_id"), r.get("measure_type"), r["names"], r["attributes"],
             r.get("date_created")) for r in records], ["id"], keep_when_missing=("date_created",))
    chart_ids = [r["id"] for r in records]
    delete_in(ChartRow, "chart", chart_ids)
    delete_in(ChartFilterValue, "chart", chart_ids)
    rows = [(row_id, r["id"], n, row["attributes"])
            for r in records for n, (row_id, row) in enumerate(zip(chart_row_ids(r), r["rows"], strict=True), 1)]
    insert_rows(ChartRow, [ChartRow.id, ChartRow.chart, ChartRow.position, ChartRow.attributes], rows)
    filters = [(r["id"], a["id"], v.get("id"), v["name"].lower() if v.get("name") is not None else None)
               for r in records for a in r["attributes"] for v in a["values"]]
    insert_rows(ChartFilterValue, [ChartFilterValue.chart, ChartFilterValue.attribute_id,
                                   ChartFilterValue.value_id, ChartFilterValue.value_key], filters)


def load_domain_discovery(records, ctx):
    """Keyed by (site, domain, category); the category may be null, which a unique index does
    not treat as equal, so stored rows are matched here and updated by id."""
    stored = {}
    for chunk in chunks({r["domain_id"] for r in records}):
        query = DomainDiscoveryTerm.select(DomainDiscoveryTerm.id, DomainDiscoveryTerm.site,
                                           DomainDiscoveryTerm.domain, DomainDiscoveryTerm.category).where(
            DomainDiscoveryTerm.domain.in_(chunk)).tuples()
        stored.update({(site, domain, category): row_id for row_id, site, domain, category in query})
    updates, inserts = [], []
    for r in records:
        key = (r["site_id"], r["domain_id"], r.get("category_id"))
        if key in stored:
            updates.append((stored[key], *key, r["terms"]))
        else:
            inserts.append((*key, r["terms"]))
    upsert(DomainDiscoveryTerm, ["id", "site", "domain", "category", "terms"], updates, ["id"])
    insert_rows(DomainDiscoveryTerm, [DomainDiscoveryTerm.site, DomainDiscoveryTerm.domain,
                                      DomainDiscoveryTerm.category, DomainDiscoveryTerm.terms], inserts)
