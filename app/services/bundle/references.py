"""Referential validation: every reference of a bundle must resolve, inside the bundle or in
the database, whatever the order of the sections; each failure is a problem with its path.

Each section declares its references (sections.py); a section without a check of its own is
checked by walking them, the others by the check functions below."""
import json

from app.services.bundle.lookup import (
    Table,
    fetch_compatible_domains,
    fetch_restriction_values,
    fetch_row_owners,
    valid,
)
from schemas.vocabulary import SPECIFIC


def check_references(registry, sections, failed=None):
    """(problems, context) of the loaded `sections` against the `registry` of Section records;
    `failed` records (structurally invalid) still count as existing."""
    problems = []
    _duplicates(registry, sections, problems)
    tables = {s.lookup.name: Table(s.lookup.model, s.lookup.key, list(s.lookup.columns))
              for s in registry if s.lookup is not None}
    for section in registry:
        if section.lookup is not None and section.lookup.registered:
            _register(tables[section.lookup.name], section, sections, failed or {})
    # A set of keys per reference, not a call per record: a catalog holds very many records.
    for section in registry:
        records = list(valid(sections, section.name))
        for ref in section.references if records else ():
            if ref.path is None:
                tables[ref.table].want_all({record.get(ref.field) for record in records})
            else:
                tables[ref.table].want_all({ref.value(record) for record in records})
    for table in tables.values():
        table.fetch()
    ctx = Context(sections, tables, problems)
    for section in registry:
        if sections.get(section.name):
            (section.check or walk_references)(ctx, section)
    return problems, ctx


def _register(table, section, sections, failed):
    key, fields = section.lookup.key, section.lookup.columns
    rows = table.rows
    # dict(zip(…, map(…))) runs in C: a comprehension per record was most of a catalog's registering.
    for record in valid(sections, section.name):
        rows[record[key]] = dict(zip(fields, map(record.get, fields), strict=False))
    for record in failed.get(section.name, ()):
        value = record.get(key)
        if isinstance(value, str | int) and value not in table:
            table.add(value, **{f: record.get(f) if isinstance(record.get(f), str | int) else None for f in fields})


def record_key(section, record):
    fields = section.key
    if len(fields) == 1 and fields[0] != "when":
        return record.get(fields[0])
    values = tuple(json.dumps(record.get(f), sort_keys=True) if f == "when" else record.get(f)
                   for f in fields)
    return values[0] if len(values) == 1 else values


def _duplicates(registry, sections, problems):
    by_name = {s.name: s for s in registry}
    for name, records in sections.items():
        section = by_name[name]
        if not section.key:
            continue
        first = {}
        # One plain field (most sections, the large ones among them): read inline, not per call.
        single = section.key[0] if len(section.key) == 1 and section.key[0] != "when" else None
        for index, record in enumerate(records):
            if record is None:
                continue
            key = record.get(single) if single is not None else record_key(section, record)
            if key in first:
                field = section.key[0] if len(section.key) == 1 else ""
                path = f"{name}[{index}]" + (f".{field}" if field else "")
                problems.append(f"{path}: repeated {_shown(key)} (first at {name}[{first[key]}])")
            else:
                first[key] = index
    # A compatibility's id is optional, and its (item, product) pair is a second key.
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
                self.problem(path, f"missing {table_name}")
            return None
        row = self.tables[table_name].get(key)
        if row is None:
            self.problem(path, f"unknown {table_name} {key}")
        return row

    def same_site(self, path, what, row, site_id):
        if row is not None and site_id is not None and row.get("site_id") not in (None, site_id):
            self.problem(path, f"{what} belongs to site {row['site_id']}, not {site_id}")

    def site_of_product(self, product):
        if product.get("site_id"):
            return product["site_id"]
        domain = self.tables["domain"].get(product.get("domain_id"))
        return domain and domain["site_id"]


def walk_references(ctx, section):
    """Each of the section's declared references must resolve; a path is formatted only for a
    reference that does not."""
    tables, name = ctx.tables, section.name
    for i, rec in ctx.records(name):
        for ref in section.references:
            key = ref.value(rec)
            row = None if key is None else tables[ref.table].get(key)
            if row is None:
                ctx.ref(f"{name}[{i}].{ref.field}", ref.table, key, ref.required)
            elif ref.same_site:
                ctx.same_site(f"{name}[{i}].{ref.field}", f"{ref.table} {key}", row, rec.get("site_id"))


def check_applications(ctx, section):
    table = ctx.tables["application"]  # the stored applications, which keep their secret
    table.want_all({rec["client_id"] for rec in valid(ctx.sections, section.name)})
    table.fetch()
    for i, rec in ctx.records(section.name):
        ctx.ref(f"applications[{i}].owner_id", "user", rec["owner_id"])
        if not rec.get("client_secret") and not rec.get("client_secret_sha256") and table.get(rec["client_id"]) is None:
            ctx.problem(f"applications[{i}].client_secret",
                        f"required: application {rec['client_id']} does not exist yet")


def check_domain_compatibilities(ctx, section):
    walk_references(ctx, section)
    for rec in valid(ctx.sections, section.name):
        for rule in rec["compatibilities"]:
            ctx.tables["domain"].want(rule["compatible_domain_id"])
            for category in rule["categories"]:
                ctx.tables["category"].want(category["id"])
    ctx.tables["domain"].fetch()
    ctx.tables["category"].fetch()
    for i, rec in ctx.records(section.name):
        for j, rule in enumerate(rec["compatibilities"]):
            path = f"domain_compatibilities[{i}].compatibilities[{j}]"
            ctx.ref(f"{path}.compatible_domain_id", "domain", rule["compatible_domain_id"])
            for k, category in enumerate(rule["categories"]):
                ctx.ref(f"{path}.categories[{k}].id", "category", category["id"])


def check_products(ctx, section):
    # A reference found is not checked again through ctx.ref, whose path would be formatted for
    # each of a catalog's many products (ctx.ref answers the same for a row it finds).
    domain_of, product_of, site_of = ctx.tables["domain"].get, ctx.tables["product"].get, ctx.tables["site"].get
    for i, rec in ctx.records("products"):
        domain = domain_of(rec["domain_id"]) or ctx.ref(f"products[{i}].domain_id", "domain", rec["domain_id"])
        site_id = rec.get("site_id")
        # A site's row holds no columns ({}): found is "not None", never its truth.
        if site_id is not None and (site_of(site_id) is not None
                                    or ctx.ref(f"products[{i}].site_id", "site", site_id) is not None) \
                and domain is not None and domain.get("site_id") not in (None, site_id):
            ctx.same_site(f"products[{i}].domain_id", f"domain {rec['domain_id']}", domain, site_id)
        parent = rec.get("parent_id")
        if parent is not None:
            if parent == rec["id"]:
                ctx.problem(f"products[{i}].parent_id", "a product cannot be its own parent")
            elif not product_of(parent):
                ctx.ref(f"products[{i}].parent_id", "product", parent)


def chart_row_ids(chart):
    """The ids of a chart's rows: as given, else "<chart_id>:<n>" with n its 1-based position."""
    return [row.get("id") or f"{chart['id']}:{n}" for n, row in enumerate(chart["rows"], start=1)]


def _child_product(ctx, path, product_id, item):
    product = ctx.ref(path, "product", product_id)
    if product is None:
        return None
    if product.get("parent_id") is None:
        ctx.problem(path, f"product {product_id} is a parent product; only child products can be compatible")
    if item is not None:
        site = ctx.site_of_product(product)
        if site is not None and site != item["site_id"]:
            ctx.problem(path, f"product {product_id} belongs to site {site}, not the item's site {item['site_id']}")
    return product


def _restriction_sets(ctx):
    """{(vehicle domain, item domain): {attribute_id: {value_id}}}: the bundle's pairs replace stored ones."""
    pairs = {}
    for rec in valid(ctx.sections, "restriction_values"):
        pairs[(rec["main_domain_id"], rec["secondary_domain_id"])] = {
            a["attribute_id"]: {v["value_id"] for v in a["values"]} for a in rec["attributes_values"]}
    wanted = set()
    for rec in valid(ctx.sections, "compatibilities"):
        if not rec.get("restrictions"):
            continue
        item, product = ctx.tables["item"].get(rec["item_id"]), ctx.tables["product"].get(rec.get("product_id"))
        if item and product:
            pair = (product["domain_id"], item["domain_id"])
            if pair not in pairs:
                wanted.add(pair)
    for pair in wanted:
        pairs[pair] = {}
    pairs.update(fetch_restriction_values(wanted))
    return pairs


def _compatible_domains(ctx):
    """{item domain: {vehicle domains}}: a bundle's domain_compatibilities entry replaces the stored one."""
    compatible = {rec["domain_id"]: {rule["compatible_domain_id"] for rule in rec["compatibilities"]}
                  for rec in valid(ctx.sections, "domain_compatibilities")}
    wanted = set()
    for item_id in {rec["item_id"] for rec in valid(ctx.sections, "compatibilities")}:
        item = ctx.tables["item"].get(item_id)
        if item and item["domain_id"] not in compatible:
            wanted.add(item["domain_id"])
    compatible.update(fetch_compatible_domains(wanted))
    return compatible


def _check_restrictions(ctx, path, restrictions, allowed, pair):
    for r, restriction in enumerate(restrictions):
        attribute_id = restriction["attribute_id"]
        if attribute_id not in allowed:
            ctx.problem(f"{path}[{r}].attribute_id",
                        f"{attribute_id} is not a restriction of domains {pair[0]} and {pair[1]}")
            continue
        for g, group in enumerate(restriction["attribute_values"]):
            for v, value in enumerate(group["values"]):
                if value["value_id"] not in allowed[attribute_id]:
                    ctx.problem(f"{path}[{r}].attribute_values[{g}].values[{v}].value_id",
                                f"unknown {attribute_id} value {value['value_id']}")


def check_compatibilities(ctx, section):
    restriction_sets, compatible = _restriction_sets(ctx), _compatible_domains(ctx)
    items, products, site_of_product = ctx.tables["item"].rows, ctx.tables["product"].rows, ctx.site_of_product
    for i, rec in ctx.records("compatibilities"):
        if not rec.get("universal") and not rec.get("restrictions"):
            # A plainly valid record (known item, known child product of the item's site, domains
            # compatible) is passed without building the paths of the problems it does not have,
            # which were a large part of this check. Any other record takes the full path below.
            item, product = items.get(rec["item_id"]), products.get(rec["product_id"])
            if item is not None and product is not None and product.get("parent_id") is not None \
                    and item["site_id"] is not None and site_of_product(product) == item["site_id"] \
                    and product["domain_id"] in compatible.get(item["domain_id"], ()):
                continue
        item = ctx.ref(f"compatibilities[{i}].item_id", "item", rec["item_id"])
        if rec.get("universal"):
            if rec.get("restrictions"):
                ctx.problem(f"compatibilities[{i}].restrictions", "a universal compatibility has no restrictions")
            continue
        product = _child_product(ctx, f"compatibilities[{i}].product_id", rec["product_id"], item)
        if item and product and ctx.site_of_product(product) == item["site_id"] \
                and product["domain_id"] not in compatible.get(item["domain_id"], ()):
            ctx.problem(f"compatibilities[{i}].product_id",
                        f"items of domain {item['domain_id']} cannot be compatible with products of domain "
                        f"{product['domain_id']} (see domain_compatibilities)")
        if rec.get("restrictions") and item and product:
            pair = (product["domain_id"], item["domain_id"])
            _check_restrictions(ctx, f"compatibilities[{i}].restrictions", rec["restrictions"],
                                restriction_sets.get(pair, {}), pair)


def check_suggestions(ctx, section):
    for i, rec in ctx.records("suggestions"):
        item = ctx.ref(f"suggestions[{i}].item_id", "item", rec["item_id"])
        _child_product(ctx, f"suggestions[{i}].product_id", rec["product_id"], item)


def check_charts(ctx, section):
    chart_ids = {rec["id"] for rec in valid(ctx.sections, "charts")}
    first_use = {}
    for i, rec in ctx.records("charts"):
        ctx.ref(f"charts[{i}].site_id", "site", rec["site_id"])
        ctx.ref(f"charts[{i}].seller_id", "user", rec.get("seller_id"), required=rec["type"] == SPECIFIC)
        for j, row_id in enumerate(chart_row_ids(rec)):
            if row_id in first_use:
                ci, cj = first_use[row_id]
                ctx.problem(f"charts[{i}].rows[{j}].id", f"repeated row id {row_id} (first at charts[{ci}].rows[{cj}])")
            else:
                first_use[row_id] = (i, j)
    owners = fetch_row_owners(first_use)
    for row_id, (i, j) in first_use.items():
        owner = owners.get(row_id)
        if owner is not None and owner not in chart_ids:
            ctx.problem(f"charts[{i}].rows[{j}].id", f"row id {row_id} already belongs to chart {owner}")
