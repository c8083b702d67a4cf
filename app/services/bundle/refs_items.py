"""Referential checks of the item-side sections (compatibilities, suggestions, exceptions,
orders, claims) and of the size-chart and discovery sections."""
from app.services.bundle.lookup import fetch_compatible_domains, fetch_restriction_values, fetch_row_owners, valid
from schemas.vocabulary import SPECIFIC


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


def _check_compatibilities(ctx):
    restriction_sets, compatible = _restriction_sets(ctx), _compatible_domains(ctx)
    items, products, site_of_product = ctx.tables["item"].rows, ctx.tables["product"].rows, ctx.site_of_product
    for i, rec in ctx.records("compatibilities"):
        if not rec.get("universal") and not rec.get("restrictions"):
            # A plainly valid record (known item, known child product of the item's site, domains
            # compatible) is passed without building the paths of the problems it does not have:
            # those strings were a fifth of this check. Any other record takes the full path below.
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


def _check_item_side(ctx):
    for i, rec in ctx.records("suggestions"):
        item = ctx.ref(f"suggestions[{i}].item_id", "item", rec["item_id"])
        _child_product(ctx, f"suggestions[{i}].product_id", rec["product_id"], item)
    for i, rec in ctx.records("exceptions"):
        ctx.ref(f"exceptions[{i}].item_id", "item", rec["item_id"])
    for i, rec in ctx.records("orders"):
        ctx.ref(f"orders[{i}].item_id", "item", rec["item_id"])
        product_id = (rec.get("snapshot") or {}).get("product_id")
        ctx.ref(f"orders[{i}].snapshot.product_id", "product", product_id, required=False)
    for i, rec in ctx.records("claims"):
        ctx.ref(f"claims[{i}].order_id", "order", rec["order_id"])


def _check_charts(ctx):
    for i, rec in ctx.records("chart_domains"):
        ctx.ref(f"chart_domains[{i}].site_id", "site", rec["site_id"])
        domain = ctx.ref(f"chart_domains[{i}].domain_id", "domain", rec["domain_id"])
        ctx.same_site(f"chart_domains[{i}].domain_id", f"domain {rec['domain_id']}", domain, rec["site_id"])
    for i, rec in ctx.records("technical_specs"):
        ctx.ref(f"technical_specs[{i}].domain_id", "domain", rec["domain_id"])
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
    for i, rec in ctx.records("domain_discovery"):
        ctx.ref(f"domain_discovery[{i}].site_id", "site", rec["site_id"])
        domain = ctx.ref(f"domain_discovery[{i}].domain_id", "domain", rec["domain_id"])
        ctx.same_site(f"domain_discovery[{i}].domain_id", f"domain {rec['domain_id']}", domain, rec["site_id"])
        ctx.ref(f"domain_discovery[{i}].category_id", "category", rec.get("category_id"), required=False)


ITEM_CHECKS = [_check_compatibilities, _check_item_side, _check_charts]
