"""Plain-Python equivalents of the bundle schemas' load() for the valid records of the large
sections (products, compatibilities).

A marshmallow load per record would be most of the import of a large section. Each check here
answers what load() answers for a record it accepts, and None whenever a record is not plainly
valid (text with NUL characters or lone surrogates included), so that load() then finds and
words the problems exactly as before.
"""
import marshmallow as ma

from schemas.bundle_fields import UtcDateTime, storable
from schemas.fields import canonical_uuid
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


PRODUCT_TEXT = {"id": (True, 40), "domain_id": (True, 100), "site_id": (False, 3), "name": (True, 300),
                "parent_id": (False, 40)}
PRODUCT_ATTRIBUTE_TEXT = {"id": (True, 100), "value_id": (False, 100), "value_name": (False, 255)}
PRODUCT_REQUIRED = {key for key, (required, _) in PRODUCT_TEXT.items() if required}
# fast_product inlines the attribute's limits.
ATTRIBUTE_KEYS, (ID_MAX, VALUE_ID_MAX, NAME_MAX) = PRODUCT_ATTRIBUTE_TEXT.keys(), (
    PRODUCT_ATTRIBUTE_TEXT[key][1] for key in ("id", "value_id", "value_name"))


def _fitting_texts(record, spec, required, texts, skip=None):
    """True when `record` is a dict holding only `spec`'s keys (and `skip`, checked by the caller),
    each a string of fitting length (or None when optional), with every required key present; its
    texts are added to `texts`, for the caller's one check that both databases store them."""
    if type(record) is not dict:
        return False
    for key, value in record.items():
        limits = spec.get(key)
        if limits is None:
            if key == skip:
                continue
            return False
        if value is None:
            if limits[0]:
                return False
        elif type(value) is not str or not 0 < len(value) <= limits[1]:
            return False
        else:
            texts.append(value)
    return required <= record.keys()


def fast_product(record):
    """BundleProductSchema().load(record) for a plainly valid product, else None (load() then
    reports the problems)."""
    if type(record) is not dict:
        return None
    attributes, texts = record.get("attributes", []), []
    if type(attributes) is not list \
            or not _fitting_texts(record, PRODUCT_TEXT, PRODUCT_REQUIRED, texts, skip="attributes"):
        return None
    # Inline rather than _fitting_texts per attribute, and one storable() over all the texts, the
    # product's own with its attributes': a check per text was most of validating a catalog.
    ids = set()
    for attribute in attributes:
        if type(attribute) is not dict or not attribute.keys() <= ATTRIBUTE_KEYS:
            return None
        attribute_id, value_id, name = attribute.get("id"), attribute.get("value_id"), attribute.get("value_name")
        if type(attribute_id) is not str or not 0 < len(attribute_id) <= ID_MAX or attribute_id in ids \
                or (value_id is not None and (type(value_id) is not str or not 0 < len(value_id) <= VALUE_ID_MAX)) \
                or (name is not None and (type(name) is not str or not 0 < len(name) <= NAME_MAX)):
            return None
        ids.add(attribute_id)
        texts += (attribute_id, value_id or "", name or "")
    if not storable("".join(texts)):
        return None
    return {**record, "attributes": attributes}


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
    choices every record has are checked inline (one storable() for the item and product ids; the id
    passes in lower case only): a check call per field was most of validating a large section."""
    if type(record) is not dict or not record.keys() <= FIELD_KEYS:
        return None
    item_id, product_id, row_id = record.get("item_id"), record.get("product_id"), record.get("id")
    if type(item_id) is not str or not 0 < len(item_id) <= 40 \
            or (product_id is not None and (type(product_id) is not str or not 0 < len(product_id) <= 40)) \
            or (row_id is not None and canonical_uuid(row_id) != row_id) \
            or not storable(item_id + (product_id or "")):
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
