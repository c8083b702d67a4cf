"""The catalog bundle's structure (import-format.md): one schema per section record.

Structural rules only (types, required fields, allowed values, duplicates inside one record);
references between records and to the database are checked by the importer.
"""
import datetime

import marshmallow as ma
from marshmallow import fields, validate, validates_schema

STATUSES = ("ENABLED", "DISABLED")
NOTE_STATUSES = ("PENDING", "APPROVED", "CHECKED")
SOURCES = ("SELLER", "CATALOGO")
CREATION_SOURCES = ("DEFAULT", "ITEM_SUGGESTIONS", "NEW_VEHICLES")
CHART_TYPES = ("BRAND", "STANDARD", "SPECIFIC")
SHEET_SECTIONS = ("SPECIFICATIONS", "GRIDS")
ITEM_STATUSES = ("active", "paused", "closed", "under_review", "inactive", "not_yet_active",
                 "payment_required")
SNAPSHOT_COMPATIBILITIES = ("CONFIRMED", "INCOMPATIBLE", "NO_USER_SELECTION")


def _one_of(choices):
    return validate.OneOf(choices, error="must be one of " + ", ".join(choices) + ", not {input!r}")


class UtcDateTime(fields.DateTime):
    """ISO 8601 in, naive UTC datetime out (the database stores UTC without a zone)."""

    def _deserialize(self, value, attr, data, **kwargs):
        parsed = super()._deserialize(value, attr, data, **kwargs)
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(datetime.UTC).replace(tzinfo=None)
        return parsed


def _text(required=True, max_length=None, **kwargs):
    checks = [validate.Length(min=1, max=max_length)]
    if not required:
        kwargs.setdefault("allow_none", True)
    return fields.String(required=required, validate=checks, **kwargs)


def _reject_repeats(rows, key, field_name, what):
    """A ValidationError naming every repeated key inside one record's list."""
    seen, errors = set(), {}
    for index, row in enumerate(rows or ()):
        value = row.get(key) if isinstance(row, dict) else None
        if value is None:
            continue
        if value in seen:
            errors[index] = {key: [f"repeated {what} {value}"]}
        seen.add(value)
    if errors:
        raise ma.ValidationError({field_name: errors})


class Record(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class SiteSchema(Record):
    id = _text(max_length=3)
    name = _text(max_length=100)
    default_currency_id = _text(max_length=3)
    language = _text(required=False, max_length=5)


class CurrencySchema(Record):
    id = _text(max_length=3)
    description = _text(max_length=100)
    symbol = _text(max_length=10)
    decimal_places = fields.Integer(required=True, validate=validate.Range(min=0, max=10))


class UserSchema(Record):
    id = fields.Integer(required=True, strict=True)
    nickname = _text(max_length=100)
    site_id = _text(required=False, max_length=3)
    access_tokens = fields.List(fields.String(validate=validate.Length(min=8, max=512)))


class ApplicationSchema(Record):
    client_id = _text(max_length=64)
    client_secret = _text(required=False, max_length=200)
    client_secret_sha256 = fields.String(
        allow_none=True, validate=validate.Regexp(r"^[0-9a-f]{64}$", error="must be 64 lowercase hex digits"))
    owner_id = fields.Integer(required=True, strict=True)
    redirect_uri = _text(required=False, max_length=500)


class DomainAttributeSchema(Record):
    id = _text(max_length=100)
    name = _text(max_length=200)


class DomainSchema(Record):
    id = _text(max_length=100)
    site_id = _text(max_length=3)
    name = _text(max_length=200)
    attributes = fields.List(fields.Nested(DomainAttributeSchema))

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        _reject_repeats(data.get("attributes"), "id", "attributes", "attribute")


class CategorySchema(Record):
    id = _text(max_length=40)
    site_id = _text(max_length=3)
    name = _text(max_length=200)
    domain_id = _text(required=False, max_length=100)


class CategoryRuleSchema(Record):
    id = _text(max_length=40)
    required = fields.Boolean(load_default=False)
    note_status = fields.String(load_default="ENABLED", validate=_one_of(STATUSES))
    restrictions_status = fields.String(load_default="ENABLED", validate=_one_of(STATUSES))
    universal_status = fields.String(load_default="DISABLED", validate=_one_of(STATUSES))


class CompatibilityRuleSchema(Record):
    compatible_domain_id = _text(max_length=100)
    type = fields.String(load_default="EXTENSION", validate=validate.Length(min=1, max=40))
    required = fields.Boolean(load_default=False)
    restrictions = fields.List(fields.Raw(), load_default=list)
    categories = fields.List(fields.Nested(CategoryRuleSchema), load_default=list)

    @validates_schema
    def _unique_categories(self, data, **kwargs):
        _reject_repeats(data.get("categories"), "id", "categories", "category")


class DomainCompatibilitySchema(Record):
    domain_id = _text(max_length=100)
    main = fields.Boolean(load_default=False)
    compatibilities = fields.List(fields.Nested(CompatibilityRuleSchema), load_default=list)

    @validates_schema
    def _unique_rules(self, data, **kwargs):
        _reject_repeats(data.get("compatibilities"), "compatible_domain_id", "compatibilities",
                        "compatible domain")


class RestrictionValueSchema(Record):
    value_id = _text(max_length=100)
    value_name = _text(max_length=255)


class RestrictionAttributeSchema(Record):
    attribute_id = _text(max_length=100)
    values = fields.List(fields.Nested(RestrictionValueSchema), load_default=list)

    @validates_schema
    def _unique_values(self, data, **kwargs):
        _reject_repeats(data.get("values"), "value_id", "values", "value")


class RestrictionValuesSchema(Record):
    main_domain_id = _text(max_length=100)
    secondary_domain_id = _text(max_length=100)
    attributes_values = fields.List(fields.Nested(RestrictionAttributeSchema), load_default=list)

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        _reject_repeats(data.get("attributes_values"), "attribute_id", "attributes_values", "attribute")


class ProductAttributeSchema(Record):
    id = _text(max_length=100)
    value_id = _text(required=False, max_length=100)
    value_name = _text(required=False, max_length=255)


class ProductSchema(Record):
    id = _text(max_length=40)
    domain_id = _text(max_length=100)
    site_id = _text(required=False, max_length=3)
    name = _text(max_length=300)
    parent_id = _text(required=False, max_length=40)
    attributes = fields.List(fields.Nested(ProductAttributeSchema), load_default=list)

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        _reject_repeats(data.get("attributes"), "id", "attributes", "attribute")


class ItemSchema(Record):
    id = _text(max_length=40)
    site_id = _text(max_length=3)
    title = _text(max_length=300)
    seller_id = fields.Integer(required=True, strict=True)
    category_id = _text(max_length=40)
    domain_id = _text(max_length=100)
    status = fields.String(load_default="active", validate=_one_of(ITEM_STATUSES))
    price = fields.Float(allow_none=True)
    currency_id = _text(required=False, max_length=3)
    official_store_id = fields.Integer(allow_none=True, strict=True)
    warranty = fields.String(allow_none=True, validate=validate.Length(max=200))
    catalog_product_id = _text(required=False, max_length=40)
    parent_item_id = _text(required=False, max_length=40)
    deal_ids = fields.List(fields.Raw(), load_default=list)
    automatic_relist = fields.Boolean(load_default=False)
    catalog_listing = fields.Boolean(load_default=False)
    health = fields.Float(allow_none=True)
    date_created = UtcDateTime(allow_none=True)
    last_updated = UtcDateTime(allow_none=True)
    attributes = fields.List(fields.Dict(), load_default=list)


class RestrictionValueRefSchema(Record):
    value_id = _text(max_length=100)
    value_name = fields.String(allow_none=True)


class RestrictionGroupSchema(Record):
    values = fields.List(fields.Nested(RestrictionValueRefSchema), required=True,
                         validate=validate.Length(min=1))


class CompatibilityRestrictionSchema(Record):
    attribute_id = _text(max_length=100)
    attribute_values = fields.List(fields.Nested(RestrictionGroupSchema), required=True,
                                   validate=validate.Length(min=1))


class CompatibilitySchema(Record):
    id = _text(required=False, max_length=36)
    item_id = _text(max_length=40)
    product_id = _text(required=False, max_length=40)
    universal = fields.Boolean(load_default=False)
    source = fields.String(load_default="CATALOGO", validate=_one_of(SOURCES))
    creation_source = fields.String(load_default="DEFAULT", validate=_one_of(CREATION_SOURCES))
    note = fields.String(allow_none=True, validate=validate.Length(max=500))
    note_status = fields.String(allow_none=True, validate=_one_of(NOTE_STATUSES))
    restrictions = fields.List(fields.Nested(CompatibilityRestrictionSchema), allow_none=True)
    date_created = UtcDateTime(allow_none=True)

    @validates_schema
    def _product_or_universal(self, data, **kwargs):
        if data.get("universal") and data.get("product_id"):
            raise ma.ValidationError("give either product_id or universal: true, not both", "product_id")
        if not data.get("universal") and not data.get("product_id"):
            raise ma.ValidationError("give product_id, or universal: true", "product_id")


class SuggestionSchema(Record):
    item_id = _text(max_length=40)
    product_id = _text(max_length=40)
    date_created = UtcDateTime(allow_none=True)


class ExceptionSchema(Record):
    item_id = _text(max_length=40)
    comment = _text(max_length=255)
    date_created = UtcDateTime(allow_none=True)


class CompatibilityStatusSchema(ma.Schema):
    """Known keys are checked; others (compatibility_id, note, restrictions) are kept as given."""

    class Meta:
        unknown = ma.INCLUDE

    compatibility = fields.String(required=True, validate=_one_of(SNAPSHOT_COMPATIBILITIES))


class SnapshotSchema(Record):
    product_id = _text(required=False, max_length=40)
    user_selection = fields.Dict(allow_none=True)
    compatibility_status = fields.Nested(CompatibilityStatusSchema, required=True)
    date_created = fields.DateTime(required=True)
    date_updated = fields.DateTime(allow_none=True)


class OrderSchema(Record):
    id = fields.Integer(required=True, strict=True)
    item_id = _text(max_length=40)
    buyer_id = fields.Integer(allow_none=True, strict=True)
    date_created = UtcDateTime(allow_none=True)
    snapshot = fields.Nested(SnapshotSchema, allow_none=True)


class ClaimSchema(Record):
    id = fields.Integer(required=True, strict=True)
    order_id = fields.Integer(required=True, strict=True)
    reason = fields.String(load_default="INCOMPATIBLE_PART", validate=validate.Length(min=1, max=60))
    date_created = UtcDateTime(allow_none=True)


class ChartDomainSchema(Record):
    site_id = _text(max_length=3)
    domain_id = _text(max_length=100)


class TechnicalSpecSchema(Record):
    domain_id = _text(max_length=100)
    section = fields.String(required=True, validate=_one_of(SHEET_SECTIONS))
    when = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)
    input = fields.Dict(load_default=dict)
    output = fields.Dict(load_default=dict)


class ChartValueSchema(Record):
    id = _text(required=False, max_length=100)
    name = fields.String(allow_none=True, validate=validate.Length(max=255))
    struct = fields.Raw(allow_none=True)


class ChartAttributeSchema(Record):
    id = _text(max_length=100)
    name = fields.String(allow_none=True)
    values = fields.List(fields.Nested(ChartValueSchema), load_default=list)


class ChartRowSchema(Record):
    id = _text(required=False, max_length=60)
    attributes = fields.List(fields.Dict(), load_default=list)


class ChartSchema(Record):
    id = _text(max_length=40)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    site_id = _text(max_length=3)
    domain_id = _text(max_length=100)
    type = fields.String(required=True, validate=_one_of(CHART_TYPES))
    seller_id = fields.Integer(allow_none=True, strict=True)
    main_attribute_id = _text(max_length=100)
    secondary_attribute_id = _text(required=False, max_length=100)
    measure_type = _text(required=False, max_length=30)
    attributes = fields.List(fields.Nested(ChartAttributeSchema), load_default=list)
    rows = fields.List(fields.Nested(ChartRowSchema), load_default=list)
    date_created = UtcDateTime(allow_none=True)

    @validates_schema
    def _unique_rows(self, data, **kwargs):
        _reject_repeats(data.get("rows"), "id", "rows", "row id")


class DomainDiscoverySchema(Record):
    site_id = _text(max_length=3)
    domain_id = _text(max_length=100)
    category_id = _text(required=False, max_length=40)
    terms = fields.List(fields.String(validate=validate.Length(min=1, max=200)), required=True)


# Section name -> record schema, in the order the importer writes them.
SECTIONS = {
    "currencies": CurrencySchema, "sites": SiteSchema, "users": UserSchema,
    "applications": ApplicationSchema, "domains": DomainSchema, "categories": CategorySchema,
    "domain_compatibilities": DomainCompatibilitySchema, "restriction_values": RestrictionValuesSchema,
    "products": ProductSchema, "items": ItemSchema, "compatibilities": CompatibilitySchema,
    "suggestions": SuggestionSchema, "exceptions": ExceptionSchema, "orders": OrderSchema,
    "claims": ClaimSchema, "chart_domains": ChartDomainSchema, "technical_specs": TechnicalSpecSchema,
    "charts": ChartSchema, "domain_discovery": DomainDiscoverySchema,
}
