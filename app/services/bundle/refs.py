"""Referential validation: every reference of a bundle must resolve, inside the bundle or in
the database, whatever the order of the sections; each failure is a problem with its path."""
import json

from app.services.bundle.lookup import make_tables, valid
from app.services.bundle.refs_items import ITEM_CHECKS

# Section -> the fields that identify one of its records (repeats are problems).
KEYS = {
    "currencies": ("id",), "sites": ("id",), "users": ("id",), "applications": ("client_id",),
    "domains": ("id",), "categories": ("id",), "domain_compatibilities": ("domain_id",),
    "restriction_values": ("main_domain_id", "secondary_domain_id"), "products": ("id",),
    "items": ("id",), "suggestions": ("item_id", "product_id"), "exceptions": ("item_id",),
    "orders": ("id",), "claims": ("id",), "chart_domains": ("site_id", "domain_id"),
    "technical_specs": ("domain_id", "section", "when"), "charts": ("id",),
    "domain_discovery": ("site_id", "domain_id", "category_id"),
    "compatibility_history": ("id",),
}

# Section -> (field, table) references resolved before the checks run.
REFERENCES = {
    "sites": [("default_currency_id", "currency")],
    "users": [("site_id", "site")],
    "applications": [("owner_id", "user"), ("client_id", "application")],
    "domains": [("site_id", "site")],
    "categories": [("site_id", "site"), ("domain_id", "domain")],
    "domain_compatibilities": [("domain_id", "domain")],
    "restriction_values": [("main_domain_id", "domain"), ("secondary_domain_id", "domain")],
    "products": [("domain_id", "domain"), ("site_id", "site"), ("parent_id", "product")],
    "items": [("site_id", "site"), ("seller_id", "user"), ("category_id", "category"),
              ("domain_id", "domain"), ("currency_id", "currency")],
    "compatibilities": [("item_id", "item"), ("product_id", "product")],
    "suggestions": [("item_id", "item"), ("product_id", "product")],
    "exceptions": [("item_id", "item")],
    "orders": [("item_id", "item")],
    "claims": [("order_id", "order")],
    "chart_domains": [("site_id", "site"), ("domain_id", "domain")],
    "technical_specs": [("domain_id", "domain")],
    "charts": [("site_id", "site"), ("seller_id", "user")],
    "domain_discovery": [("site_id", "site"), ("domain_id", "domain"), ("category_id", "category")],
}

# Table -> (section, fields copied from the bundle's records).
REGISTER = {
    "currency": ("currencies", ()), "site": ("sites", ()), "user": ("users", ()),
    "domain": ("domains", ("site_id",)), "category": ("categories", ("site_id", "domain_id")),
    "product": ("products", ("site_id", "domain_id", "parent_id")),
    "item": ("items", ("site_id", "domain_id", "category_id")), "order": ("orders", ("item_id",)),
}

NAMES = {"currency": "currency", "site": "site", "user": "user", "application": "application",
         "domain": "domain", "category": "category", "product": "product", "item": "item",
         "order": "order"}


def record_key(section, record):
    fields = KEYS[section]
    if len(fields) == 1 and fields[0] != "when":
        return record.get(fields[0])
    values = tuple(json.dumps(record.get(f), sort_keys=True) if f == "when" else record.get(f)
                   for f in fields)
    return values[0] if len(values) == 1 else values


def _duplicates(sections, problems):
    for section, records in sections.items():
        if section not in KEYS:
            continue
        first = {}
        for index, record in enumerate(records):
            if record is None:
                continue
            key = record_key(section, record)
            if key in first:
                field = KEYS[section][0] if len(KEYS[section]) == 1 else ""
                path = f"{section}[{index}]" + (f".{field}" if field else "")
                problems.append(f"{path}: repeated {_shown(key)} (first at {section}[{first[key]}])")
            else:
                first[key] = index
    compat_seen = {}
    for index, record in enumerate(sections.get("compatibilities", ())):
        if record is None:
            continue
        for key, label in (((record.get("id"),), "id"),
                           ((record["item_id"], record.get("product_id")), "item and product")):
            if key[0] is None:
                continue
            if key in compat_seen:
                problems.append(f"compatibilities[{index}]: repeated {label} {_shown(key)} "
                                f"(first at compatibilities[{compat_seen[key]}])")
            else:
                compat_seen[key] = index


def _shown(key):
    if isinstance(key, tuple):
        return "(" + ", ".join("universal" if v is None else str(v) for v in key) + ")"
    return str(key)


def check_references(sections, failed=None):
    """(problems, context): `failed` records (structurally invalid) still count as existing."""
    problems = []
    _duplicates(sections, problems)
    tables = make_tables()
    for table_name, (section, fields) in REGISTER.items():
        rows = tables[table_name].rows
        for record in valid(sections, section):
            rows[record["id"]] = {f: record.get(f) for f in fields}
        for record in (failed or {}).get(section, ()):
            key = record.get("id")
            if isinstance(key, str | int) and key not in tables[table_name]:
                tables[table_name].add(key, **{f: record.get(f) if isinstance(record.get(f), str | int) else None
                                               for f in fields})
    # A set of keys per reference, not a call per record: a catalog's 100,000s of records.
    for section, refs in REFERENCES.items():
        records = list(valid(sections, section))
        for field, table_name in refs:
            tables[table_name].want_all({record.get(field) for record in records})
    tables["product"].want_all({(order.get("snapshot") or {}).get("product_id") for order in valid(sections, "orders")})
    for table in tables.values():
        table.fetch()
    ctx = Context(sections, tables, problems)
    for check in CHECKS:
        check(ctx)
    return problems, ctx


class Context:
    def __init__(self, sections, tables, problems):
        self.sections, self.tables, self.problems = sections, tables, problems

    def records(self, section):
        """(index, record) of the section's records that passed the structural checks."""
        return ((i, r) for i, r in enumerate(self.sections.get(section, ())) if r is not None)

    def problem(self, path, message):
        self.problems.append(f"{path}: {message}")

    def ref(self, path, table_name, key, required=True):
        """The referenced record, or None after noting the problem (None keys pass when optional)."""
        if key is None:
            if required:
                self.problem(path, f"missing {NAMES[table_name]}")
            return None
        row = self.tables[table_name].get(key)
        if row is None:
            self.problem(path, f"unknown {NAMES[table_name]} {key}")
        return row

    def same_site(self, path, what, row, site_id):
        if row is not None and site_id is not None and row.get("site_id") not in (None, site_id):
            self.problem(path, f"{what} belongs to site {row['site_id']}, not {site_id}")

    def site_of_product(self, product):
        if product.get("site_id"):
            return product["site_id"]
        domain = self.tables["domain"].get(product.get("domain_id"))
        return domain and domain["site_id"]


def _check_common(ctx):
    for i, rec in ctx.records("sites"):
        ctx.ref(f"sites[{i}].default_currency_id", "currency", rec["default_currency_id"])
    for i, rec in ctx.records("users"):
        ctx.ref(f"users[{i}].site_id", "site", rec.get("site_id"), required=False)
    for i, rec in ctx.records("applications"):
        ctx.ref(f"applications[{i}].owner_id", "user", rec["owner_id"])
        stored = ctx.tables["application"].get(rec["client_id"])
        if not rec.get("client_secret") and not rec.get("client_secret_sha256") and stored is None:
            ctx.problem(f"applications[{i}].client_secret",
                        f"required: application {rec['client_id']} does not exist yet")


def _check_catalog(ctx):
    for i, rec in ctx.records("domains"):
        ctx.ref(f"domains[{i}].site_id", "site", rec["site_id"])
    for i, rec in ctx.records("categories"):
        ctx.ref(f"categories[{i}].site_id", "site", rec["site_id"])
        domain = ctx.ref(f"categories[{i}].domain_id", "domain", rec.get("domain_id"), required=False)
        ctx.same_site(f"categories[{i}].domain_id", f"domain {rec.get('domain_id')}", domain, rec["site_id"])
    for i, rec in ctx.records("domain_compatibilities"):
        ctx.ref(f"domain_compatibilities[{i}].domain_id", "domain", rec["domain_id"])
        for rule in rec["compatibilities"]:
            ctx.tables["domain"].want(rule["compatible_domain_id"])
            for category in rule["categories"]:
                ctx.tables["category"].want(category["id"])
    ctx.tables["domain"].fetch()
    ctx.tables["category"].fetch()
    for i, rec in ctx.records("domain_compatibilities"):
        for j, rule in enumerate(rec["compatibilities"]):
            path = f"domain_compatibilities[{i}].compatibilities[{j}]"
            ctx.ref(f"{path}.compatible_domain_id", "domain", rule["compatible_domain_id"])
            for k, category in enumerate(rule["categories"]):
                ctx.ref(f"{path}.categories[{k}].id", "category", category["id"])
    for i, rec in ctx.records("restriction_values"):
        ctx.ref(f"restriction_values[{i}].main_domain_id", "domain", rec["main_domain_id"])
        ctx.ref(f"restriction_values[{i}].secondary_domain_id", "domain", rec["secondary_domain_id"])


def _check_products(ctx):
    # A reference found is not checked again through ctx.ref, whose path would be formatted for
    # each of a catalog's 100,000s of products (ctx.ref answers the same for a row it finds).
    domain_of, product_of = ctx.tables["domain"].get, ctx.tables["product"].get
    for i, rec in ctx.records("products"):
        domain = domain_of(rec["domain_id"]) or ctx.ref(f"products[{i}].domain_id", "domain", rec["domain_id"])
        if rec.get("site_id") is not None \
                and ctx.ref(f"products[{i}].site_id", "site", rec["site_id"]) is not None:
            ctx.same_site(f"products[{i}].domain_id", f"domain {rec['domain_id']}", domain, rec["site_id"])
        parent = rec.get("parent_id")
        if parent is not None:
            if parent == rec["id"]:
                ctx.problem(f"products[{i}].parent_id", "a product cannot be its own parent")
            elif not product_of(parent):
                ctx.ref(f"products[{i}].parent_id", "product", parent)


def _check_items(ctx):
    for i, rec in ctx.records("items"):
        site = rec["site_id"]
        ctx.ref(f"items[{i}].site_id", "site", site)
        ctx.ref(f"items[{i}].seller_id", "user", rec["seller_id"])
        category = ctx.ref(f"items[{i}].category_id", "category", rec["category_id"])
        ctx.same_site(f"items[{i}].category_id", f"category {rec['category_id']}", category, site)
        domain = ctx.ref(f"items[{i}].domain_id", "domain", rec["domain_id"])
        ctx.same_site(f"items[{i}].domain_id", f"domain {rec['domain_id']}", domain, site)
        ctx.ref(f"items[{i}].currency_id", "currency", rec.get("currency_id"), required=False)


CHECKS = [_check_common, _check_catalog, _check_products, _check_items, *ITEM_CHECKS]
