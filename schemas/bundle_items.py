"""Bundle schemas of the item-side sections (items, compatibilities, suggestions, exceptions,
orders, claims) and of the size-chart and discovery sections."""
import marshmallow as ma
from marshmallow import fields, validate, validates_schema

from schemas.bundle_base import (
    ITEM_STATUSES,
    SHEET_SECTIONS,
    SNAPSHOT_COMPATIBILITIES,
    Id,
    Record,
    UtcDateTime,
    one_of,
    reject_repeats,
    text,
)
from schemas.bundle_fast import fast_compatibility
from schemas.vocabulary import (
    CATALOGO,
    CHART_TYPES,
    COMPATIBILITY_SOURCES,
    CREATION_SOURCES,
    DEFAULT,
    NOTE_STATUSES,
)


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
    id = text(required=False, max_length=36)
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

    @validates_schema
    def _unique_rows(self, data, **kwargs):
        reject_repeats(data.get("rows"), "id", "rows", "row id")


class BundleDomainDiscoverySchema(Record):
    site_id = text(max_length=3)
    domain_id = text(max_length=100)
    category_id = text(required=False, max_length=40)
    terms = fields.List(fields.String(validate=validate.Length(min=1, max=200)), required=True)


# Section name -> record schema, in the order the importer writes them.
