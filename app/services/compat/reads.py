"""Reading an item's compatibilities (endpoints 12 to 15): a few queries per call, never one
per compatibility. Any valid token reads; only the seller sees notes still in moderation."""
from dataclasses import dataclass

from app.errors import ApiError
from app.models import CategoryRule, CompatibilityRule
from app.services.compat import queries
from app.services.compat.context import LOADABLE_TYPE, load_rules, loadable_domain_ids
from schemas.vocabulary import CATALOGO, PAGE_LIMIT_DEFAULT, VISIBLE_NOTE_STATUSES


@dataclass(frozen=True)
class VisibleNote:
    """Endpoint 15's answer (NoteSchema): the note the caller may see, "" when none."""

    note: str


@dataclass(frozen=True)
class ExtendedCheck:
    """Endpoint 14's answer (ExtendedCheckSchema): whether the item's category accepts each."""

    note: bool
    restrictions: bool


def _note(row, is_seller):
    if row["note"] and (is_seller or row["note_status"] in VISIBLE_NOTE_STATUSES):
        return row["note"]
    return ""


def _reputation(claims, red_claims):
    return {"level": "RED" if claims >= red_claims else "GREEN", "claims_count": claims}


def _restrictions(stored):
    """Stored restrictions in the exact shape (keys and their order) CompatibilityEntrySchema
    dumps (see list_compatibilities)."""
    out = []
    for restriction in stored:
        coded = {"attribute_id": restriction.get("attribute_id")}
        if "attribute_code" in restriction:
            coded["attribute_code"] = restriction["attribute_code"]
        coded["attribute_values"] = [{"values": [_value(v) for v in group.get("values") or ()]}
                                     for group in restriction.get("attribute_values") or ()]
        out.append(coded)
    return out


def _value(value):
    return {key: value[key] for key in ("value_id", "value_name", "value_code") if key in value}


def _entry(row, is_seller, claims, red_claims, extended=True):
    """A list entry as CompatibilityEntrySchema dumps it (see list_compatibilities); endpoint 13
    answers the same entry, which its schema dumps."""
    product_id = row["vehicle_id"]
    entry = {"id": row["id"], "domain_id": row["domain_id"], "catalog_product_id": product_id,
             "catalog_product_name": row["product_name"] if product_id else None, "source": row["source"]}
    if extended:
        entry["note"] = _note(row, is_seller)
        if row["restrictions"]:
            entry["restrictions"] = _restrictions(row["restrictions"])
        if claims.get(product_id):
            entry["reputation"] = _reputation(claims[product_id], red_claims)
    return entry


def list_compatibilities(item, caller_id, extended, limit, offset, red_claims):
    """Endpoint 12: every compatibility of `item` (its row, which the view's ETag is taken from
    too), or a page of them when limit or offset is given.

    The one service that answers the wire body itself: CompatibilityListSchema's dump, key
    order included, which the view sends without dumping it again (app.http.smorest.raw_json).
    An item lists up to 10,000 entries, and marshmallow dumping them was a large share of the
    request; tests/compat/test_list_wire.py compares the two byte for byte.
    """
    is_seller = item.seller_id == caller_id
    paged = limit is not None or offset is not None
    if paged:
        limit = PAGE_LIMIT_DEFAULT if limit is None else limit
        offset = offset or 0
        listed, catalog_count, universal_id = queries.list_totals(item.key)
        rows = list(queries.list_rows(item, limit, offset, claims=extended))
    else:  # one statement: the totals come from the rows (the universal setting's among them)
        rows = list(queries.list_rows(item, claims=extended))
        listed, catalog_count, universal_id = _totals(rows)
        rows = [row for row in rows if not row["universal"]]
    claims = {row["vehicle_id"]: row["claims"] for row in rows if row.get("claims")}
    result = {"products": [_entry(row, is_seller, claims, red_claims, extended) for row in rows],
              "catalog_compatibilities_count": int(catalog_count or 0)}
    if universal_id is not None:
        result["universal"] = {"id": universal_id, "domain_ids": loadable_domain_ids(load_rules(item))}
    if paged:
        result["paging"] = {"total": int(listed or 0), "offset": offset, "limit": limit}
    return result


def _totals(rows):
    """queries.list_totals() of an item whose every row was read."""
    universal = [row["id"] for row in rows if row["universal"]]
    return (len(rows) - len(universal), sum(row["source"] == CATALOGO for row in rows),
            max(universal) if universal else None)


def _compatibility(item, compatibility_id):
    row = queries.entry_row(item.key, compatibility_id)
    if row is None:
        raise ApiError("compatibility_not_found", f"Item {item.id} has no compatibility {compatibility_id}")
    return row


def get_compatibility(item, compatibility_id, caller_id, red_claims):
    """Endpoint 13 (`item` is the item's row); note_status only for the item's seller."""
    row = _compatibility(item, compatibility_id)
    is_seller = item.seller_id == caller_id
    claims = queries.claims_by_product(item.id) if row["vehicle_id"] else {}
    entry = _entry(row, is_seller, claims, red_claims)
    if row["universal"]:
        entry["universal"] = True
    if is_seller:
        entry["note_status"] = row["note_status"]
    return entry


def get_note(item, compatibility_id, caller_id):
    """Endpoint 15 (`item` is the item's row): "" when there is no note, or it is still in
    moderation for another caller."""
    return VisibleNote(_note(_compatibility(item, compatibility_id), item.seller_id == caller_id))


def extended_check(item):
    """Endpoint 14: whether the category of `item` (its row) accepts notes and restrictions."""
    settings = list(CategoryRule.select(CategoryRule.note_status, CategoryRule.restrictions_status)
                    .join(CompatibilityRule)
                    .where(CategoryRule.category == item.category_id,
                           CompatibilityRule.domain == item.domain_id,
                           CompatibilityRule.type == LOADABLE_TYPE))

    def enabled(attr):
        return any(getattr(s, attr) == "ENABLED" for s in settings)

    return ExtendedCheck(enabled("note_status"), enabled("restrictions_status"))
