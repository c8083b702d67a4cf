"""Plain-Python equivalents of the bundle schemas' load() for large sections' valid records.

A marshmallow load costs tens of microseconds per record, most of an import of a million
compatibilities. Each check here answers what load() answers for a record it accepts, and None
whenever a record is not plainly valid (text with NUL characters or lone surrogates included), so
that load() then finds and words the problems exactly as before.
"""
import marshmallow as ma

from schemas.bundle_base import UtcDateTime, storable
from schemas.vocabulary import CATALOGO, COMPATIBILITY_SOURCES, CREATION_SOURCES, DEFAULT, NOTE_STATUSES


def _text(max_length, required=True):
    def check(value):
        if value is None:
            return not required
        return type(value) is str and 0 < len(value) <= max_length and storable(value)
    return check


def _choice(choices, allow_none=False):
    return lambda value: (allow_none and value is None) or (type(value) is str and value in choices)


_ID, _NAME, _DATE = _text(100), _text(float("inf"), required=False), UtcDateTime(allow_none=True)


def _restrictions(value):
    """The shape BundleCompatibilityRestrictionSchema loads unchanged."""
    if value is None:
        return True
    if type(value) is not list:
        return False
    for restriction in value:
        if type(restriction) is not dict or restriction.keys() != {"attribute_id", "attribute_values"} \
                or not _ID(restriction["attribute_id"]) or type(groups := restriction["attribute_values"]) is not list \
                or not groups:
            return False
        for group in groups:
            if type(group) is not dict or group.keys() != {"values"} or type(group["values"]) is not list \
                    or not group["values"]:
                return False
            for ref in group["values"]:
                if type(ref) is not dict or not ref.keys() <= {"value_id", "value_name"} \
                        or not _ID(ref.get("value_id")) or not _NAME(ref.get("value_name")):
                    return False
    return True


COMPATIBILITY_FIELDS = {
    "id": _text(36, required=False), "item_id": _text(40), "product_id": _text(40, required=False),
    "universal": lambda value: type(value) is bool, "source": _choice(COMPATIBILITY_SOURCES),
    "creation_source": _choice(CREATION_SOURCES),
    "note": lambda value: value is None or (type(value) is str and len(value) <= 500 and storable(value)),
    "note_status": _choice(NOTE_STATUSES, allow_none=True), "restrictions": _restrictions,
    "date_created": lambda value: value is None or type(value) is str,
}


FIELD_KEYS = COMPATIBILITY_FIELDS.keys()
OTHER_FIELDS = ("universal", "note", "note_status", "restrictions", "date_created")


def fast_compatibility(record):
    """BundleCompatibilitySchema().load(record) for a plainly valid record, else None. The ids and
    choices every record has are checked inline (one storable() for the three ids): a check call
    per field was most of validating a million compatibilities."""
    if type(record) is not dict or not record.keys() <= FIELD_KEYS:
        return None
    item_id, product_id, row_id = record.get("item_id"), record.get("product_id"), record.get("id")
    if type(item_id) is not str or not 0 < len(item_id) <= 40 \
            or (product_id is not None and (type(product_id) is not str or not 0 < len(product_id) <= 40)) \
            or (row_id is not None and (type(row_id) is not str or not 0 < len(row_id) <= 36)) \
            or not storable(item_id + (product_id or "") + (row_id or "")):
        return None
    loaded = {"universal": False, "source": CATALOGO, "creation_source": DEFAULT, **record}
    if type(loaded["source"]) is not str or loaded["source"] not in COMPATIBILITY_SOURCES \
            or type(loaded["creation_source"]) is not str or loaded["creation_source"] not in CREATION_SOURCES:
        return None
    for key in OTHER_FIELDS:
        if key in record and not COMPATIBILITY_FIELDS[key](record[key]):
            return None
    if loaded["universal"] != (product_id is None):
        return None  # both or neither: the schema's _product_or_universal words it
    if loaded.get("date_created") is not None:
        try:
            loaded["date_created"] = _DATE.deserialize(loaded["date_created"])
        except ma.ValidationError:
            return None
    return loaded
