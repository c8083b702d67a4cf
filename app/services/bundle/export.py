"""Each section of the database in the bundle's shape, in a stable order: what `export_bundle` writes
and `import_bundle` reproduces.

Secrets cannot be exported, since only their hashes are stored:
- users are exported without `access_tokens`; importing the export again keeps the stored tokens
  of existing users (a fresh database gets users without tokens: issue new ones);
- applications are exported with `client_secret_sha256` (the stored hash) instead of
  `client_secret`, which import accepts, so the export also restores applications elsewhere.
"""
from itertools import groupby

from peewee import JOIN

from app.models import (
    Application,
    Category,
    CategoryRule,
    Chart,
    ChartDomain,
    ChartRow,
    Claim,
    Compatibility,
    CompatibilityDomain,
    CompatibilityException,
    CompatibilityRule,
    Currency,
    Domain,
    DomainDiscoveryTerm,
    Item,
    Order,
    Product,
    ProductAttribute,
    RestrictionAttribute,
    RestrictionValue,
    Site,
    Suggestion,
    TechnicalSpec,
    User,
)
from app.services.bundle.load import ITEM_FIELDS, ITEM_KEYS
from app.services.notifications import applications as notifications


def iso(value):
    if value is None:
        return None
    return value.isoformat(timespec="microseconds" if value.microsecond else "seconds") + "Z"


def _rows(query):
    return query.dicts().iterator()


def currencies():
    return list(_rows(Currency.select().order_by(Currency.id)))


def sites():
    return list(_rows(Site.select().order_by(Site.id)))


def users():
    return [{"id": u["id"], "nickname": u["nickname"], "site_id": u["site"]}
            for u in _rows(User.select().order_by(User.id))]


def applications():
    return [{"client_id": a["client_id"], "client_secret_sha256": a["secret_hash"], "owner_id": a["owner"],
             "redirect_uri": a["redirect_uri"], **notifications.exported_subscription(a)}
            for a in _rows(Application.select().order_by(Application.client_id))]


def domains():
    return [{"id": d["id"], "site_id": d["site"], "name": d["name"], "attributes": d["attributes"]}
            for d in _rows(Domain.select().order_by(Domain.id))]


def categories():
    return [{"id": c["id"], "site_id": c["site"], "name": c["name"], "domain_id": c["domain"]}
            for c in _rows(Category.select().order_by(Category.id))]


def suggestions():
    return [{"item_id": s["item"], "product_id": s["product_id"], "date_created": iso(s["date_created"])}
            for s in _rows(Suggestion.select().order_by(Suggestion.item, Suggestion.product_id))]


def exceptions():
    return [{"item_id": e["item"], "comment": e["comment"], "date_created": iso(e["date_created"])}
            for e in _rows(CompatibilityException.select().order_by(CompatibilityException.item))]


def orders():
    return [{"id": o["id"], "item_id": o["item"], "buyer_id": o["buyer_id"], "date_created": iso(o["date_created"]),
             "snapshot": o["snapshot"]} for o in _rows(Order.select().order_by(Order.id))]


def claims():
    return [{"id": c["id"], "order_id": c["order"], "reason": c["reason"], "date_created": iso(c["date_created"])}
            for c in _rows(Claim.select().order_by(Claim.id))]


def chart_domains():
    return [{"site_id": c["site"], "domain_id": c["domain"]}
            for c in _rows(ChartDomain.select().order_by(ChartDomain.site, ChartDomain.domain))]


def technical_specs():
    return [{"domain_id": t["domain"], "section": t["section"], "when": t["when"], "input": t["input"],
             "output": t["output"]}
            for t in _rows(TechnicalSpec.select().order_by(TechnicalSpec.domain, TechnicalSpec.section,
                                                           TechnicalSpec.when_key))]


def domain_discovery():
    return [{"site_id": d["site"], "domain_id": d["domain"], "category_id": d["category"], "terms": d["terms"]}
            for d in _rows(DomainDiscoveryTerm.select().order_by(
                DomainDiscoveryTerm.site, DomainDiscoveryTerm.domain, DomainDiscoveryTerm.category.asc(nulls="FIRST")))]


def domain_compatibilities():
    categories = {}
    for c in _rows(CategoryRule.select().order_by(CategoryRule.rule, CategoryRule.position, CategoryRule.id)):
        categories.setdefault(c["rule"], []).append({
            "id": c["category"], "required": c["required"], "note_status": c["note_status"],
            "restrictions_status": c["restrictions_status"], "universal_status": c["universal_status"]})
    rules = {}
    for r in _rows(CompatibilityRule.select().order_by(CompatibilityRule.domain, CompatibilityRule.position,
                                                       CompatibilityRule.id)):
        rules.setdefault(r["domain"], []).append({
            "compatible_domain_id": r["compatible_domain"], "type": r["type"], "required": r["required"],
            "restrictions": r["restrictions"], "categories": categories.get(r["id"], [])})
    return [{"domain_id": d["domain"], "main": d["main"], "compatibilities": rules.get(d["domain"], [])}
            for d in _rows(CompatibilityDomain.select().order_by(CompatibilityDomain.domain))]


def restriction_values():
    values = {}
    for v in _rows(RestrictionValue.select().order_by(RestrictionValue.attribute, RestrictionValue.position,
                                                      RestrictionValue.id)):
        values.setdefault(v["attribute"], []).append({"value_id": v["value_id"], "value_name": v["value_name"]})
    attributes = _rows(RestrictionAttribute.select().order_by(
        RestrictionAttribute.main_domain, RestrictionAttribute.secondary_domain, RestrictionAttribute.position,
        RestrictionAttribute.id))
    return [{"main_domain_id": main, "secondary_domain_id": secondary,
             "attributes_values": [{"attribute_id": a["attribute_id"], "values": values.get(a["id"], [])}
                                   for a in group]}
            for (main, secondary), group in groupby(attributes, key=lambda a: (a["main_domain"],
                                                                                a["secondary_domain"]))]


def products():
    attributes = {}
    query = ProductAttribute.select(ProductAttribute.product, ProductAttribute.attribute_id,
                                    ProductAttribute.value_id, ProductAttribute.value_name).order_by(
        ProductAttribute.product, ProductAttribute.position)
    for product_key, attribute_id, value_id, value_name in query.tuples().iterator():
        attributes.setdefault(product_key, []).append(
            {"id": attribute_id, "value_id": value_id, "value_name": value_name})
    query = Product.select(Product.id, Product.domain, Product.site, Product.name, Product.parent_id,
                           Product.key).order_by(Product.id)
    return [{"id": p, "domain_id": d, "site_id": s, "name": n, "parent_id": parent,
             "attributes": attributes.get(key, [])} for p, d, s, n, parent, key in query.tuples().iterator()]


def items():
    fields = [getattr(Item, name) for name in ITEM_FIELDS]
    out = []
    for row in Item.select(*fields).order_by(Item.id).tuples().iterator():
        record = dict(zip(ITEM_KEYS, row, strict=True))
        record["date_created"] = iso(record["date_created"])
        record["last_updated"] = iso(record["last_updated"])
        out.append(record)
    return out


def compatibilities():
    out = []
    # Named by their text ids, in their order: the rows hold the item's and the product's keys.
    query = (Compatibility.select(Compatibility, Item.id.alias("item_id"), Product.id.alias("product_id"))
             .join(Item, on=(Item.key == Compatibility.item))
             .join(Product, JOIN.LEFT_OUTER, on=(Product.key == Compatibility.product), src=Compatibility)
             .order_by(Item.id, Product.id.asc(nulls="FIRST"), Compatibility.id))
    for c in _rows(query):
        record = {"id": c["id"], "item_id": c["item_id"]}
        record.update({"universal": True} if c["universal"] else {"product_id": c["product_id"]})
        record.update(source=c["source"], creation_source=c["creation_source"], note=c["note"],
                      note_status=c["note_status"], restrictions=c["restrictions"],
                      date_created=iso(c["date_created"]))
        out.append(record)
    return out


def charts():
    rows = {}
    for r in _rows(ChartRow.select().order_by(ChartRow.chart, ChartRow.position)):
        rows.setdefault(r["chart"], []).append({"id": r["id"], "attributes": r["attributes"]})
    return [{"id": c["id"], "names": c["names"], "site_id": c["site"], "domain_id": c["domain_id"],
             "type": c["type"], "seller_id": c["seller_id"], "main_attribute_id": c["main_attribute_id"],
             "secondary_attribute_id": c["secondary_attribute_id"], "measure_type": c["measure_type"],
             "attributes": c["attributes"], "rows": rows.get(c["id"], []), "date_created": iso(c["date_created"])}
            for c in _rows(Chart.select().order_by(Chart.id))]
