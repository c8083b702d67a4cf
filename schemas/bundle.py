"""The catalog bundle's structure (import-format.md): one schema per section record.

Structural rules only (types, required fields, allowed values, duplicates inside one record);
references between records and to the database are checked by the importer.
"""
from marshmallow import fields, validate, validates_schema

from schemas.bundle_base import (
    ITEM_STATUSES,
    SHEET_SECTIONS,
    SNAPSHOT_COMPATIBILITIES,
    STATUSES,
    FlatRecords,
    Id,
    Record,
    one_of,
    reject_repeats,
    storable,
    text,
)
from schemas.bundle_items import (
    BundleChartDomainSchema,
    BundleChartSchema,
    BundleClaimSchema,
    BundleCompatibilitySchema,
    BundleDomainDiscoverySchema,
    BundleExceptionSchema,
    BundleItemSchema,
    BundleOrderSchema,
    BundleSuggestionSchema,
    BundleTechnicalSpecSchema,
)
from schemas.history import BundleChangeSchema


class BundleSiteSchema(Record):
    id = text(max_length=3)
    name = text(max_length=100)
    default_currency_id = text(max_length=3)
    language = text(required=False, max_length=5)


class BundleCurrencySchema(Record):
    id = text(max_length=3)
    description = text(max_length=100)
    symbol = text(max_length=10)
    decimal_places = fields.Integer(required=True, validate=validate.Range(min=0, max=10))


class BundleUserSchema(Record):
    id = Id(required=True)
    nickname = text(max_length=100)
    site_id = text(required=False, max_length=3)
    access_tokens = fields.List(fields.String(validate=validate.Length(min=8, max=512)))


class BundleApplicationSchema(Record):
    client_id = text(max_length=64)
    client_secret = text(required=False, max_length=200)
    client_secret_sha256 = fields.String(
        allow_none=True, validate=validate.Regexp(r"^[0-9a-f]{64}$", error="must be 64 lowercase hex digits"))
    owner_id = Id(required=True)
    redirect_uri = text(required=False, max_length=500)


# The finder's description of a domain attribute (extensions.md F); what a bundle omits gets these.
ATTRIBUTE_HIERARCHIES = ("PARENT_PK", "CHILD_PK", "FAMILY", "ITEM", "CHILD_DEPENDENT")
ATTRIBUTE_DEFAULTS = {"value_type": "list", "hierarchy": "CHILD_PK", "relevance": 3}


class BundleDomainAttributeSchema(Record):
    id = text(max_length=100)
    name = text(max_length=200)
    value_type = fields.String(load_default=ATTRIBUTE_DEFAULTS["value_type"], validate=validate.Length(min=1, max=40))
    hierarchy = fields.String(load_default=ATTRIBUTE_DEFAULTS["hierarchy"], validate=one_of(ATTRIBUTE_HIERARCHIES))
    relevance = fields.Integer(load_default=ATTRIBUTE_DEFAULTS["relevance"], strict=True,
                               validate=validate.Range(min=1, max=3))


class BundleDomainSchema(Record):
    id = text(max_length=100)
    site_id = text(max_length=3)
    name = text(max_length=200)
    attributes = fields.List(fields.Nested(BundleDomainAttributeSchema))

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        reject_repeats(data.get("attributes"), "id", "attributes", "attribute")


class BundleCategorySchema(Record):
    id = text(max_length=40)
    site_id = text(max_length=3)
    name = text(max_length=200)
    domain_id = text(required=False, max_length=100)


class BundleCategoryRuleSchema(Record):
    id = text(max_length=40)
    required = fields.Boolean(load_default=False)
    note_status = fields.String(load_default="ENABLED", validate=one_of(STATUSES))
    restrictions_status = fields.String(load_default="ENABLED", validate=one_of(STATUSES))
    universal_status = fields.String(load_default="DISABLED", validate=one_of(STATUSES))


class BundleCompatibilityRuleSchema(Record):
    compatible_domain_id = text(max_length=100)
    type = fields.String(load_default="EXTENSION", validate=validate.Length(min=1, max=40))
    required = fields.Boolean(load_default=False)
    restrictions = fields.List(fields.Raw(), load_default=list)
    categories = fields.List(fields.Nested(BundleCategoryRuleSchema), load_default=list)

    @validates_schema
    def _unique_categories(self, data, **kwargs):
        reject_repeats(data.get("categories"), "id", "categories", "category")


class BundleDomainCompatibilitySchema(Record):
    domain_id = text(max_length=100)
    main = fields.Boolean(load_default=False)
    compatibilities = fields.List(fields.Nested(BundleCompatibilityRuleSchema), load_default=list)

    @validates_schema
    def _unique_rules(self, data, **kwargs):
        reject_repeats(data.get("compatibilities"), "compatible_domain_id", "compatibilities",
                        "compatible domain")


class BundleRestrictionValueSchema(Record):
    value_id = text(max_length=100)
    value_name = text(max_length=255)


class BundleRestrictionAttributeSchema(Record):
    attribute_id = text(max_length=100)
    values = fields.List(fields.Nested(BundleRestrictionValueSchema), load_default=list)

    @validates_schema
    def _unique_values(self, data, **kwargs):
        reject_repeats(data.get("values"), "value_id", "values", "value")


class BundleRestrictionValuesSchema(Record):
    main_domain_id = text(max_length=100)
    secondary_domain_id = text(max_length=100)
    attributes_values = fields.List(fields.Nested(BundleRestrictionAttributeSchema), load_default=list)

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        reject_repeats(data.get("attributes_values"), "attribute_id", "attributes_values", "attribute")


PRODUCT_TEXT = {"id": (True, 40), "domain_id": (True, 100), "site_id": (False, 3), "name": (True, 300),
                "parent_id": (False, 40)}
PRODUCT_ATTRIBUTE_TEXT = {"id": (True, 100), "value_id": (False, 100), "value_name": (False, 255)}
PRODUCT_REQUIRED = {key for key, (required, _) in PRODUCT_TEXT.items() if required}
# The fast check below inlines the attribute's limits.
ATTRIBUTE_KEYS, (ID_MAX, VALUE_ID_MAX, NAME_MAX) = PRODUCT_ATTRIBUTE_TEXT.keys(), (
    PRODUCT_ATTRIBUTE_TEXT[key][1] for key in ("id", "value_id", "value_name"))


def _clean_texts(record, spec, required, skip=None):
    """True when `record` is a dict holding only `spec`'s keys (and `skip`, checked by the caller),
    each a fitting string (or None when optional) that both databases store, with every required
    key present."""
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
        elif type(value) is not str or not 0 < len(value) <= limits[1] or not storable(value):
            return False
    return required <= record.keys()


class BundleProductSchema(Record):
    id = text(max_length=40)
    domain_id = text(max_length=100)
    site_id = text(required=False, max_length=3)
    name = text(max_length=300)
    parent_id = text(required=False, max_length=40)
    attributes = FlatRecords(PRODUCT_ATTRIBUTE_TEXT, unique="id", what="attribute", load_default=list)

    @staticmethod
    def fast_load(record):
        """What load() answers for a valid product, in a fraction of its time (a catalog holds
        100,000s of products); None when in doubt, and load() then reports the problems."""
        if type(record) is not dict:
            return None
        attributes = record.get("attributes", [])
        if type(attributes) is not list or not _clean_texts(record, PRODUCT_TEXT, PRODUCT_REQUIRED, skip="attributes"):
            return None
        # Inline rather than _clean_texts per attribute, and one storable() over all the texts:
        # five attributes per product made this most of validating a catalog.
        ids, texts = set(), []
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


# Section name -> record schema.
SECTIONS = {
    "currencies": BundleCurrencySchema, "sites": BundleSiteSchema, "users": BundleUserSchema,
    "applications": BundleApplicationSchema, "domains": BundleDomainSchema, "categories": BundleCategorySchema,
    "domain_compatibilities": BundleDomainCompatibilitySchema, "restriction_values": BundleRestrictionValuesSchema,
    "products": BundleProductSchema, "items": BundleItemSchema, "compatibilities": BundleCompatibilitySchema,
    "suggestions": BundleSuggestionSchema, "exceptions": BundleExceptionSchema, "orders": BundleOrderSchema,
    "claims": BundleClaimSchema, "chart_domains": BundleChartDomainSchema, "technical_specs": BundleTechnicalSpecSchema,
    "charts": BundleChartSchema, "domain_discovery": BundleDomainDiscoverySchema,
    "compatibility_history": BundleChangeSchema,
}

# The allowed values are part of this module's interface (other schemas validate against them).
__all__ = ["SECTIONS", "ITEM_STATUSES", "SHEET_SECTIONS", "SNAPSHOT_COMPATIBILITIES", "STATUSES"]
