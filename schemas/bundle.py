"""The catalog bundle's structure (import-format.md): one schema per section record.

Structural rules only (types, required fields, allowed values, duplicates inside one record);
references between records and to the database are checked by the importer.
"""
import marshmallow as ma
from marshmallow import fields, post_load, validate, validates_schema

from schemas.bundle_fast import PRODUCT_ATTRIBUTE_TEXT, fast_compatibility, fast_product
from schemas.bundle_fields import (
    ITEM_STATUSES,
    SHEET_SECTIONS,
    SNAPSHOT_COMPATIBILITIES,
    STATUSES,
    FlatRecords,
    Id,
    Record,
    UtcDateTime,
    one_of,
    text,
)
from schemas.fields import UuidText
from schemas.notifications import TOPICS
from schemas.vocabulary import (
    ATTRIBUTE_HIERARCHIES,
    CATALOGO,
    CHART_TYPES,
    COMPATIBILITY_SOURCES,
    CREATION_SOURCES,
    DEFAULT,
    NOTE_STATUSES,
)

# The allowed values are part of this module's interface (other schemas validate against them).
__all__ = ["ITEM_STATUSES", "SHEET_SECTIONS", "SNAPSHOT_COMPATIBILITIES", "STATUSES"]


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
    # Notifications (extensions.md, N); the URL is checked as N2 checks it when the import loads it.
    callback_url = text(required=False, max_length=500)
    topics = fields.List(fields.String(validate=validate.OneOf(TOPICS)), required=False, allow_none=True)


# The finder's description of a domain attribute (extensions.md F); what a bundle omits gets these.
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
    UNIQUE = {"attributes": ("id", "attribute")}


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
    UNIQUE = {"categories": ("id", "category")}


class BundleDomainCompatibilitySchema(Record):
    domain_id = text(max_length=100)
    main = fields.Boolean(load_default=False)
    compatibilities = fields.List(fields.Nested(BundleCompatibilityRuleSchema), load_default=list)
    UNIQUE = {"compatibilities": ("compatible_domain_id", "compatible domain")}


class BundleRestrictionValueSchema(Record):
    value_id = text(max_length=100)
    value_name = text(max_length=255)


class BundleRestrictionAttributeSchema(Record):
    attribute_id = text(max_length=100)
    values = fields.List(fields.Nested(BundleRestrictionValueSchema), load_default=list)
    UNIQUE = {"values": ("value_id", "value")}


class BundleRestrictionValuesSchema(Record):
    main_domain_id = text(max_length=100)
    secondary_domain_id = text(max_length=100)
    attributes_values = fields.List(fields.Nested(BundleRestrictionAttributeSchema), load_default=list)
    UNIQUE = {"attributes_values": ("attribute_id", "attribute")}


class BundleProductSchema(Record):
    id = text(max_length=40)
    domain_id = text(max_length=100)
    site_id = text(required=False, max_length=3)
    name = text(max_length=300)
    parent_id = text(required=False, max_length=40)
    attributes = FlatRecords(PRODUCT_ATTRIBUTE_TEXT, unique="id", what="attribute", load_default=list)
    fast_load = staticmethod(fast_product)


class BundleItemSchema(Record):
    id = text(max_length=40)
    site_id = text(max_length=3)
    title = text(max_length=300)
    seller_id = Id(required=True)
    category_id = text(max_length=40)
    domain_id = text(max_length=100)
    status = fields.String(load_default="active", validate=one_of(ITEM_STATUSES))
    price = fields.Float(allow_none=True)
    currency_id = text(required=False, max_length=3)
    official_store_id = Id(allow_none=True)
    warranty = fields.String(allow_none=True, validate=validate.Length(max=200))
    catalog_product_id = text(required=False, max_length=40)
    parent_item_id = text(required=False, max_length=40)
    deal_ids = fields.List(fields.Raw(), load_default=list)
    automatic_relist = fields.Boolean(load_default=False)
    catalog_listing = fields.Boolean(load_default=False)
    health = fields.Float(allow_none=True)
    date_created = UtcDateTime(allow_none=True)
    last_updated = UtcDateTime(allow_none=True)
    attributes = fields.List(fields.Dict(), load_default=list)


class BundleRestrictionValueRefSchema(Record):
    value_id = text(max_length=100)
    value_name = fields.String(allow_none=True)


class BundleRestrictionGroupSchema(Record):
    values = fields.List(fields.Nested(BundleRestrictionValueRefSchema), required=True,
                         validate=validate.Length(min=1))


class BundleCompatibilityRestrictionSchema(Record):
    attribute_id = text(max_length=100)
    attribute_values = fields.List(fields.Nested(BundleRestrictionGroupSchema), required=True,
                                   validate=validate.Length(min=1))


class BundleCompatibilitySchema(Record):
    id = UuidText(allow_none=True)
    item_id = text(max_length=40)
    product_id = text(required=False, max_length=40)
    universal = fields.Boolean(load_default=False)
    source = fields.String(load_default=CATALOGO, validate=one_of(COMPATIBILITY_SOURCES))
    creation_source = fields.String(load_default=DEFAULT, validate=one_of(CREATION_SOURCES))
    note = fields.String(allow_none=True, validate=validate.Length(max=500))
    note_status = fields.String(allow_none=True, validate=one_of(NOTE_STATUSES))
    restrictions = fields.List(fields.Nested(BundleCompatibilityRestrictionSchema), allow_none=True)
    date_created = UtcDateTime(allow_none=True)
    fast_load = staticmethod(fast_compatibility)

    @validates_schema
    def _product_or_universal(self, data, **kwargs):
        if data.get("universal") and data.get("product_id"):
            raise ma.ValidationError("give either product_id or universal: true, not both", "product_id")
        if not data.get("universal") and not data.get("product_id"):
            raise ma.ValidationError("give product_id, or universal: true", "product_id")


class BundleSuggestionSchema(Record):
    item_id = text(max_length=40)
    product_id = text(max_length=40)
    date_created = UtcDateTime(allow_none=True)


class BundleExceptionSchema(Record):
    item_id = text(max_length=40)
    comment = text(max_length=255)
    date_created = UtcDateTime(allow_none=True)


class BundleCompatibilityStatusSchema(ma.Schema):
    """Known keys are checked; others (compatibility_id, note, restrictions) are kept as given."""

    class Meta:
        unknown = ma.INCLUDE

    compatibility = fields.String(required=True, validate=one_of(SNAPSHOT_COMPATIBILITIES))


class BundleSnapshotSchema(Record):
    product_id = text(required=False, max_length=40)
    user_selection = fields.Dict(allow_none=True)
    compatibility_status = fields.Nested(BundleCompatibilityStatusSchema, required=True)
    date_created = fields.DateTime(required=True)
    date_updated = fields.DateTime(allow_none=True)


class BundleOrderSchema(Record):
    id = Id(required=True)
    item_id = text(max_length=40)
    buyer_id = Id(allow_none=True)
    date_created = UtcDateTime(allow_none=True)
    snapshot = fields.Nested(BundleSnapshotSchema, allow_none=True)

    @post_load(pass_original=True)
    def _snapshot_as_given(self, data, original, **kwargs):
        """The snapshot is stored as given, once checked: its dates stay ISO strings."""
        if data.get("snapshot") is not None:
            data["snapshot"] = original["snapshot"]
        return data


class BundleClaimSchema(Record):
    id = Id(required=True)
    order_id = Id(required=True)
    reason = fields.String(load_default="INCOMPATIBLE_PART", validate=validate.Length(min=1, max=60))
    date_created = UtcDateTime(allow_none=True)


class BundleChartDomainSchema(Record):
    site_id = text(max_length=3)
    domain_id = text(max_length=100)


class BundleTechnicalSpecSchema(Record):
    domain_id = text(max_length=100)
    section = fields.String(required=True, validate=one_of(SHEET_SECTIONS))
    when = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)
    input = fields.Dict(load_default=dict)
    output = fields.Dict(load_default=dict)


class BundleChartValueSchema(Record):
    id = text(required=False, max_length=100)
    name = fields.String(allow_none=True, validate=validate.Length(max=255))
    struct = fields.Raw(allow_none=True)


class BundleChartAttributeSchema(Record):
    id = text(max_length=100)
    name = fields.String(allow_none=True)
    values = fields.List(fields.Nested(BundleChartValueSchema), load_default=list)


class BundleChartRowSchema(Record):
    id = text(required=False, max_length=60)
    attributes = fields.List(fields.Dict(), load_default=list)


class BundleChartSchema(Record):
    id = text(max_length=40)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    site_id = text(max_length=3)
    domain_id = text(max_length=100)
    type = fields.String(required=True, validate=one_of(CHART_TYPES))
    seller_id = Id(allow_none=True)
    main_attribute_id = text(max_length=100)
    secondary_attribute_id = text(required=False, max_length=100)
    measure_type = text(required=False, max_length=30)
    attributes = fields.List(fields.Nested(BundleChartAttributeSchema), load_default=list)
    rows = fields.List(fields.Nested(BundleChartRowSchema), load_default=list)
    date_created = UtcDateTime(allow_none=True)
    UNIQUE = {"rows": ("id", "row id")}


class BundleDomainDiscoverySchema(Record):
    site_id = text(max_length=3)
    domain_id = text(max_length=100)
    category_id = text(required=False, max_length=40)
    terms = fields.List(fields.String(validate=validate.Length(min=1, max=200)), required=True)
