"""Applying one item's rows through the same service functions as the synchronous endpoints: ADD is
endpoint 8 without its 200-product limit, REPLACE and DELETE are endpoint 10's sections. All the
rows of the item apply, or none; each row's result says what it changed or the error object that
endpoint answers for the same problem."""
import contextlib
import json
from dataclasses import dataclass

from app.db import db
from app.errors import ApiError
from app.models import Compatibility
from app.services import compat, history
from app.services.auth import require_item, require_item_seller
from app.services.bulk import queries
from app.services.catalog.text_normalize import value_key
from app.services.compat.context import CatalogReads, ItemContext, load_rules, loadable_domain_ids, lock_item
from app.services.compat.plans import family_products, resolve_products
from app.services.compat.restrictions import RestrictionCatalog
from app.services.row_keys.lookups import product_id_of
from schemas.bulk import ADD, DELETE
from schemas.vocabulary import DEFAULT, SELLER

POSITION = "POSITION"


@dataclass
class RowResult:
    row: int
    status: str
    created: int = 0
    updated: int = 0
    deleted: int = 0
    error: dict | None = None


def error_object(exc):
    """What the HTTP layer answers for `exc` (app/http/errors.py, error_response)."""
    return {"message": exc.message, "error": exc.error, "status": exc.status, "cause": list(exc.cause),
            **exc.extra}


def limits_for(config):
    """Endpoint 8's limits, the per-request ones lifted to the per-item limit."""
    per_item = config["COMPAT_MAX_PER_ITEM"]
    return compat.Limits(max_products=per_item, max_families=per_item, max_per_item=per_item)


def apply_item(job, item_id, rows, limits, reads=None):
    """[RowResult] of the item's rows (BulkRow, in row order), their changes made in the caller's
    transaction, or none of them (a savepoint rolled back) when one fails. `reads`: the catalog reads
    (CatalogReads) shared by the items of one consumer's task slice, what CSV rows are read by (see
    _resolve_csv) among them."""
    reads = reads or CatalogReads()
    scope = history.ChangeScope(history.Actor(history.BULK, job.seller_id, job.client_id), job.request_id,
                                job_id=job.id)
    results = []
    with history.change_scope(scope):
        try:
            with _together(rows):
                item = require_item_seller(require_item(item_id), job.seller_id)
                for row in rows:
                    before = dict(scope.counts)
                    _apply_row(item, json.loads(row.body), job.seller_id, limits, reads)
                    results.append(RowResult(row.row, "OK", *(scope.counts.get(action, 0) - before.get(action, 0)
                                                              for action in ("CREATE", "UPDATE", "DELETE"))))
        except ApiError as exc:
            failed = rows[len(results)].row
            other = {"message": f"Not applied: row {failed} of item {item_id} failed, and the rows of one item "
                                "apply together or not at all", "error": "item_not_applied", "status": 424,
                     "cause": []}
            return [RowResult(row.row, "ERROR", error=error_object(exc) if row.row == failed else other)
                    for row in rows]
    return results


def _together(rows):
    """A savepoint around the item's rows when there are several; one row's writes are one service
    call, whose own transaction (a savepoint in the caller's) is then all there is to roll back."""
    return db.atomic() if len(rows) > 1 else contextlib.nullcontext()


def _apply_row(item, row, seller_id, limits, reads):
    item_id = item.id
    if any("domain_id" not in f for f in row.get("products_families", ())) \
            or any("position" in p for p in row.get("products", ())):
        _resolve_csv(item, row, reads)
    if row["action"] == ADD:
        compat.add_compatibilities(item, _create_section(row), seller_id, limits, reads)
    elif row["action"] == DELETE:
        section = {k: row[k] for k in ("products", "products_families", "universal") if k in row}
        compat.change_compatibilities(item, {"delete": section}, seller_id, limits, reads)
    else:
        compat.change_compatibilities(item, _replacement(item_id, row, limits, reads), seller_id, limits, reads)


def _create_section(row):
    """Endpoint 8's body: the row's note, restrictions and creation_source are the defaults of its
    elements (a row without creation_source creates with DEFAULT)."""
    defaults = {"creation_source": row.get("creation_source", DEFAULT)}
    defaults.update({k: row[k] for k in ("note", "restrictions") if k in row})
    body = {}
    for section in ("products", "products_families"):
        if row.get(section):
            body[section] = [{**defaults, **element} for element in row[section]]
    if row.get("universal"):
        body["universal"] = True
    return body


def _replacement(item_id, row, limits, reads):
    """Endpoint 10's body that makes the item's compatibilities exactly the row's: delete what the
    row leaves out (the seller's own; the catalog's stay, rule A.7), create what it adds (kept
    products are skipped, so they keep their ids and get no record), update the kept ones whose
    element gives a note or restrictions."""
    ctx = ItemContext(lock_item(item_id), reads)
    create = _create_section(row)
    wanted = set()
    if create.get("products"):
        wanted.update(resolve_products(ctx, [p["id"] for p in create["products"]], "create.products"))
    for i, family in enumerate(create.get("products_families", ())):
        wanted.update(family_products(ctx, family, f"create.products_families.{i}", limits))
    stored = list(Compatibility.select(product_id_of(Compatibility.product), Compatibility.universal)
                  .where(Compatibility.item == ctx.item.key, Compatibility.source == SELLER).tuples())
    body = {"delete": {"products": [{"id": pid} for pid, universal in stored if not universal and pid not in wanted],
                       "universal": any(universal for _, universal in stored) and not row.get("universal")}}
    kept = {pid for pid, universal in stored if not universal and pid in wanted}
    if create:
        body["create"] = create
    update = {section: [{k: v for k, v in element.items() if k != "creation_source"}
                        for element in create.get(section, ()) if "note" in element or "restrictions" in element]
              for section in ("products", "products_families")}
    update["products"] = [element for element in update["products"] if element["id"] in kept]
    if kept and (update["products"] or update["products_families"]):
        body["update"] = {k: v for k, v in update.items() if v}
    return body


def _is_value_id(domain_id, attribute_id, value, reads):
    return reads.get(("value", domain_id, attribute_id, value),
                     lambda: queries.is_value_id(domain_id, attribute_id, value))


def _vehicle_domain(item, reads):
    """(the vehicle domain endpoint 1 gives first for the item's domain and category, its POSITION
    values {value id: (code, name)}), or (None, {})."""
    def read():
        rules = reads.get(("rules", item.domain_id, item.category_id), lambda: load_rules(item))
        domains = loadable_domain_ids(rules)
        positions = RestrictionCatalog(item.domain_id).attributes(domains[0]).get(POSITION, (None, {}))[1] \
            if domains else {}
        return domains[0] if domains else None, positions
    return reads.get(("vehicle domain", item.domain_id, item.category_id), read)


def _resolve_csv(item, row, reads):
    """A CSV line names its family by the item's vehicle domain (endpoint 1) and each value by its id
    or its name, and its position by a value id or name: all found here, for the item's domain. A
    value is its id when some vehicle has it as one (then the family's lookup is the exact one),
    else a name (matched ignoring case and accents)."""
    domain_id, positions = _vehicle_domain(item, reads)
    if domain_id is None:
        raise ApiError("domain_not_compatible", f"Items of domain {item.domain_id} cannot be made compatible with "
                       f"any vehicle domain (see GET /catalog/dumps/domains/{item.site_id}/compatibilities)")
    by_name = {value_key(name): value_id for value_id, (_, name) in positions.items()}
    for element in (*row.get("products", ()), *row.get("products_families", ())):
        if "attributes" in element:
            element.setdefault("domain_id", domain_id)
            element["attributes"] = [
                {"id": a["id"], "value_id": a["value"]} if _is_value_id(domain_id, a["id"], a["value"], reads)
                else {"id": a["id"], "value_name": a["value"]} for a in element["attributes"]]
        position = element.pop("position", None)
        if position is not None:
            value_id = position if position in positions else by_name.get(value_key(position), position)
            element["restrictions"] = [{"attribute_id": POSITION, "attribute_values": [{"values": [
                {"value_id": value_id}]}]}]
