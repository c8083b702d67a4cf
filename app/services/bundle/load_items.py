"""Writing the item-side sections (items, compatibilities, suggestions, exceptions, orders,
claims) and the size-chart and discovery sections."""
import json
import os
import time

from app.models import (
    Chart,
    ChartDomain,
    ChartFilterValue,
    ChartRow,
    Claim,
    Compatibility,
    CompatibilityException,
    DomainDiscoveryTerm,
    Item,
    Order,
    Suggestion,
    TechnicalSpec,
)
from app.models.base import utcnow
from app.services import history
from app.services.bundle.bulk import references_locked
from app.services.bundle.load import upsert
from app.services.bundle.lookup import chunks
from app.services.bundle.refs_items import chart_row_ids
from app.services.bundle.sql import delete_in, index_lookups, insert_rows, select_in
from schemas.vocabulary import PENDING

ITEM_FIELDS = ["id", "site", "title", "seller", "category", "domain", "status", "price", "currency_id",
               "official_store_id", "warranty", "catalog_product_id", "parent_item_id", "deal_ids",
               "automatic_relist", "catalog_listing", "health", "date_created", "last_updated", "attributes"]
ITEM_KEYS = ["id", "site_id", "title", "seller_id", "category_id", "domain_id", "status", "price", "currency_id",
             "official_store_id", "warranty", "catalog_product_id", "parent_item_id", "deal_ids",
             "automatic_relist", "catalog_listing", "health", "date_created", "last_updated", "attributes"]


def load_items(records, ctx):
    upsert(Item, ITEM_FIELDS, [tuple(r.get(k) for k in ITEM_KEYS) for r in records], ["id"],
           keep_when_missing=("date_created", "last_updated"))


COMPATIBILITY_FIELDS = ["id", "item", "product", "universal", "domain_id", "source", "creation_source", "note",
                        "note_status", "restrictions", "date_created"]


_VARIANT = {digit: "89ab"[int(digit, 16) & 3] for digit in "0123456789abcdef"}


def time_ordered_uuids(count):
    """`count` UUIDs of version 7 (RFC 9562): the current Unix time in milliseconds, then 74
    random bits, from one urandom read (uuid4() per row cost more than the row's insert).

    The time first makes an import's new ids greater than those of the imports before it, so
    they are appended at the right edge of the primary key's B-tree instead of landing on
    nearly every leaf of a million random keys: each chunk of 100,000 then dirtied (and wrote to
    the WAL, and checkpointed) a fraction of the index's pages. Sorted, they are also in key
    order within the import."""
    stamp = f"{time.time_ns() // 1_000_000:012x}"
    head = f"{stamp[:8]}-{stamp[8:]}-7"
    digits = os.urandom(10 * count).hex()
    return [f"{head}{h[:3]}-{_VARIANT[h[3]]}{h[4:7]}-{h[7:19]}"
            for h in (digits[start:start + 20] for start in range(0, 20 * count, 20))]


def _stored_compatibility_ids(item_ids):
    """{(item_id, product_id or None): id} of the compatibilities these items already have."""
    with index_lookups():
        rows = select_in(Compatibility, ["id", "item", "product"], "item", item_ids)
        return {(item_id, product_id): row_id for row_id, item_id, product_id in rows}


def load_compatibilities(records, ctx):
    """Upsert by id; without an id, the item's stored compatibility with that product keeps its
    id (or a new time-ordered UUID is made). A stored row of the same (item, product) under another id is
    replaced by the bundle's."""
    stored = _stored_compatibility_ids({r["item_id"] for r in records})
    explicit = {r["id"] for r in records if r.get("id")}
    rows, fresh, replaced = [], set(), []
    # Sorted: given in record order, the new rows reach both the id index and the (item, product)
    # one in key order instead of at random places in a tree of a million keys.
    new_ids = iter(sorted(time_ordered_uuids(sum(1 for r in records if not r.get("id")))))
    products = ctx.tables["product"].rows
    for r in records:
        product_id = None if r.get("universal") else r["product_id"]
        old = stored.get((r["item_id"], product_id))
        row_id = r.get("id") or (old if old not in explicit else None)  # an explicit id moves elsewhere
        if row_id is None:
            row_id = next(new_ids)
            fresh.add(row_id)
        if old is not None and old != row_id:
            replaced.append(old)
        product = products.get(product_id) if product_id else None
        note_status = r.get("note_status") or (PENDING if r.get("note") else None)
        rows.append((row_id, r["item_id"], product_id, product_id is None, product and product["domain_id"],
                     r["source"], r["creation_source"], r.get("note"), note_status, r.get("restrictions") or None,
                     r.get("date_created")))
    # A bundle carrying compatibility_history is a backup being restored: that section already
    # tells these rows' story, so the import does not add IMPORT records of its own.
    history.record_import(rows, replaced, record=not ctx.sections.get("compatibility_history"), new_ids=fresh)
    delete_in(Compatibility, "id", replaced)
    # A new id cannot be stored yet and the replaced rows are gone, so those rows are plain
    # INSERTs (COPY on PostgreSQL) rather than upserts.
    now = utcnow()
    new_rows = [row if row[-1] is not None else (*row[:-1], now) for row in rows if row[0] in fresh]
    with references_locked(Compatibility, COMPATIBILITY_FIELDS, new_rows):
        insert_rows(Compatibility, COMPATIBILITY_FIELDS, new_rows)
    upsert(Compatibility, COMPATIBILITY_FIELDS, [row for row in rows if row[0] not in fresh], ["id"],
           keep_when_missing=("date_created",))


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
    upsert(Claim, ["id", "order", "reason", "date_created"],
           [(r["id"], r["order_id"], r["reason"], r.get("date_created")) for r in records], ["id"],
           keep_when_missing=("date_created",))


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
