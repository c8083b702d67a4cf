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


class FlatRecords(fields.Field):
    """A list of flat records of optional-or-required strings, checked in plain Python.

    Nested schemas cost tens of microseconds per record: too slow for the 500,000 product
    attributes of a large catalog. Messages have marshmallow's shape ({index: {field: [...]}}).
    """

    def __init__(self, spec, unique=None, what="value", **kwargs):
        super().__init__(**kwargs)
        # spec: {name: (required, max_length)}; `unique` names the field no two records share.
        self.spec, self.unique, self.what = spec, unique, what

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ma.ValidationError("Not a valid list.")
        errors, out, seen = {}, [], set()
        for index, record in enumerate(value):
            if not isinstance(record, dict):
                errors[index] = {"_schema": ["Invalid input type."]}
                continue
            problems = {key: ["Unknown field."] for key in record if key not in self.spec}
            for name, (required, max_length) in self.spec.items():
                text = record.get(name)
                if text is None:
                    if required:
                        problems[name] = ["Missing data for required field." if name not in record
                                          else "Field may not be null."]
                elif not isinstance(text, str):
                    problems[name] = ["Not a valid string."]
                elif not 0 < len(text) <= max_length:
                    problems[name] = [f"Length must be between 1 and {max_length}."]
            key = record.get(self.unique) if self.unique else None
            if key is not None and not problems:
                if key in seen:
                    problems[self.unique] = [f"repeated {self.what} {key}"]
                seen.add(key)
            if problems:
                errors[index] = problems
            else:
                out.append(record)
        if errors:
            raise ma.ValidationError(errors)
        return out


class Record(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class BundleSiteSchema(Record):
    id = _text(max_length=3)
    name = _text(max_length=100)
    default_currency_id = _text(max_length=3)
    language = _text(required=False, max_length=5)


class BundleCurrencySchema(Record):
    id = _text(max_length=3)
    description = _text(max_length=100)
    symbol = _text(max_length=10)
    decimal_places = fields.Integer(required=True, validate=validate.Range(min=0, max=10))


class BundleUserSchema(Record):
    id = fields.Integer(required=True, strict=True)
    nickname = _text(max_length=100)
    site_id = _text(required=False, max_length=3)
    access_tokens = fields.List(fields.String(validate=validate.Length(min=8, max=512)))


class BundleApplicationSchema(Record):
    client_id = _text(max_length=64)
    client_secret = _text(required=False, max_length=200)
    client_secret_sha256 = fields.String(
        allow_none=True, validate=validate.Regexp(r"^[0-9a-f]{64}$", error="must be 64 lowercase hex digits"))
    owner_id = fields.Integer(required=True, strict=True)
    redirect_uri = _text(required=False, max_length=500)


class BundleDomainAttributeSchema(Record):
    id = _text(max_length=100)
    name = _text(max_length=200)


class BundleDomainSchema(Record):
    id = _text(max_length=100)
    site_id = _text(max_length=3)
    name = _text(max_length=200)
    attributes = fields.List(fields.Nested(BundleDomainAttributeSchema))

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        _reject_repeats(data.get("attributes"), "id", "attributes", "attribute")


class BundleCategorySchema(Record):
    id = _text(max_length=40)
    site_id = _text(max_length=3)
    name = _text(max_length=200)
    domain_id = _text(required=False, max_length=100)


class BundleCategoryRuleSchema(Record):
    id = _text(max_length=40)
    required = fields.Boolean(load_default=False)
    note_status = fields.String(load_default="ENABLED", validate=_one_of(STATUSES))
    restrictions_status = fields.String(load_default="ENABLED", validate=_one_of(STATUSES))
    universal_status = fields.String(load_default="DISABLED", validate=_one_of(STATUSES))


class BundleCompatibilityRuleSchema(Record):
    compatible_domain_id = _text(max_length=100)
    type = fields.String(load_default="EXTENSION", validate=validate.Length(min=1, max=40))
    required = fields.Boolean(load_default=False)
    restrictions = fields.List(fields.Raw(), load_default=list)
    categories = fields.List(fields.Nested(BundleCategoryRuleSchema), load_default=list)

    @validates_schema
    def _unique_categories(self, data, **kwargs):
        _reject_repeats(data.get("categories"), "id", "categories", "category")


class BundleDomainCompatibilitySchema(Record):
    domain_id = _text(max_length=100)
    main = fields.Boolean(load_default=False)
    compatibilities = fields.List(fields.Nested(BundleCompatibilityRuleSchema), load_default=list)

    @validates_schema
    def _unique_rules(self, data, **kwargs):
        _reject_repeats(data.get("compatibilities"), "compatible_domain_id", "compatibilities",
                        "compatible domain")


class BundleRestrictionValueSchema(Record):
    value_id = _text(max_length=100)
    value_name = _text(max_length=255)


class BundleRestrictionAttributeSchema(Record):
    attribute_id = _text(max_length=100)
    values = fields.List(fields.Nested(BundleRestrictionValueSchema), load_default=list)

    @validates_schema
    def _unique_values(self, data, **kwargs):
        _reject_repeats(data.get("values"), "value_id", "values", "value")


class BundleRestrictionValuesSchema(Record):
    main_domain_id = _text(max_length=100)
    secondary_domain_id = _text(max_length=100)
    attributes_values = fields.List(fields.Nested(BundleRestrictionAttributeSchema), load_default=list)

    @validates_schema
    def _unique_attributes(self, data, **kwargs):
        _reject_repeats(data.get("attributes_values"), "attribute_id", "attributes_values", "attribute")


class BundleProductSchema(Record):
    id = _text(max_length=40)
    domain_id = _text(max_length=100)
    site_id = _text(required=False, max_length=3)
    name = _text(max_length=300)
    parent_id = _text(required=False, max_length=40)
    attributes = FlatRecords({"id": (True, 100), "value_id": (False, 100), "value_name": (False, 255)},
                             unique="id", what="attribute", load_default=list)


class BundleItemSchema(Record):
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


class BundleRestrictionValueRefSchema(Record):
    value_id = _text(max_length=100)
    value_name = fields.String(allow_none=True)


class BundleRestrictionGroupSchema(Record):
    values = fields.List(fields.Nested(BundleRestrictionValueRefSchema), required=True,
                         validate=validate.Length(min=1))


class BundleCompatibilityRestrictionSchema(Record):
    attribute_id = _text(max_length=100)
    attribute_values = fields.List(fields.Nested(BundleRestrictionGroupSchema), required=True,
                                   validate=validate.Length(min=1))


class BundleCompatibilitySchema(Record):
    id = _text(required=False, max_length=36)
    item_id = _text(max_length=40)
    product_id = _text(required=False, max_length=40)
    universal = fields.Boolean(load_default=False)
    source = fields.String(load_default="CATALOGO", validate=_one_of(SOURCES))
    creation_source = fields.String(load_default="DEFAULT", validate=_one_of(CREATION_SOURCES))
    note = fields.String(allow_none=True, validate=validate.Length(max=500))
    note_status = fields.String(allow_none=True, validate=_one_of(NOTE_STATUSES))
    restrictions = fields.List(fields.Nested(BundleCompatibilityRestrictionSchema), allow_none=True)
    date_created = UtcDateTime(allow_none=True)

    @validates_schema
    def _product_or_universal(self, data, **kwargs):
        if data.get("universal") and data.get("product_id"):
            raise ma.ValidationError("give either product_id or universal: true, not both", "product_id")
        if not data.get("universal") and not data.get("product_id"):
            raise ma.ValidationError("give product_id, or universal: true", "product_id")


class BundleSuggestionSchema(Record):
    item_id = _text(max_length=40)
    product_id = _text(max_length=40)
    date_created = UtcDateTime(allow_none=True)


class BundleExceptionSchema(Record):
    item_id = _text(max_length=40)
    comment = _text(max_length=255)
    date_created = UtcDateTime(allow_none=True)


class BundleCompatibilityStatusSchema(ma.Schema):
    """Known keys are checked; others (compatibility_id, note, restrictions) are kept as given."""

    class Meta:
        unknown = ma.INCLUDE

    compatibility = fields.String(required=True, validate=_one_of(SNAPSHOT_COMPATIBILITIES))


class BundleSnapshotSchema(Record):
    product_id = _text(required=False, max_length=40)
    user_selection = fields.Dict(allow_none=True)
    compatibility_status = fields.Nested(BundleCompatibilityStatusSchema, required=True)
    date_created = fields.DateTime(required=True)
    date_updated = fields.DateTime(allow_none=True)


class BundleOrderSchema(Record):
    id = fields.Integer(required=True, strict=True)
    item_id = _text(max_length=40)
    buyer_id = fields.Integer(allow_none=True, strict=True)
    date_created = UtcDateTime(allow_none=True)
    snapshot = fields.Nested(BundleSnapshotSchema, allow_none=True)


class BundleClaimSchema(Record):
    id = fields.Integer(required=True, strict=True)
    order_id = fields.Integer(required=True, strict=True)
    reason = fields.String(load_default="INCOMPATIBLE_PART", validate=validate.Length(min=1, max=60))
    date_created = UtcDateTime(allow_none=True)


class BundleChartDomainSchema(Record):
    site_id = _text(max_length=3)
    domain_id = _text(max_length=100)


class BundleTechnicalSpecSchema(Record):
    domain_id = _text(max_length=100)
    section = fields.String(required=True, validate=_one_of(SHEET_SECTIONS))
    when = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)
    input = fields.Dict(load_default=dict)
    output = fields.Dict(load_default=dict)


class BundleChartValueSchema(Record):
    id = _text(required=False, max_length=100)
    name = fields.String(allow_none=True, validate=validate.Length(max=255))
    struct = fields.Raw(allow_none=True)


class BundleChartAttributeSchema(Record):
    id = _text(max_length=100)
    name = fields.String(allow_none=True)
    values = fields.List(fields.Nested(BundleChartValueSchema), load_default=list)


class BundleChartRowSchema(Record):
    id = _text(required=False, max_length=60)
    attributes = fields.List(fields.Dict(), load_default=list)


class BundleChartSchema(Record):
    id = _text(max_length=40)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    site_id = _text(max_length=3)
    domain_id = _text(max_length=100)
    type = fields.String(required=True, validate=_one_of(CHART_TYPES))
    seller_id = fields.Integer(allow_none=True, strict=True)
    main_attribute_id = _text(max_length=100)
    secondary_attribute_id = _text(required=False, max_length=100)
    measure_type = _text(required=False, max_length=30)
    attributes = fields.List(fields.Nested(BundleChartAttributeSchema), load_default=list)
    rows = fields.List(fields.Nested(BundleChartRowSchema), load_default=list)
    date_created = UtcDateTime(allow_none=True)

    @validates_schema
    def _unique_rows(self, data, **kwargs):
        _reject_repeats(data.get("rows"), "id", "rows", "row id")


class BundleDomainDiscoverySchema(Record):
    site_id = _text(max_length=3)
    domain_id = _text(max_length=100)
    category_id = _text(required=False, max_length=40)
    terms = fields.List(fields.String(validate=validate.Length(min=1, max=200)), required=True)


# Section name -> record schema, in the order the importer writes them.
SECTIONS = {
    "currencies": BundleCurrencySchema, "sites": BundleSiteSchema, "users": BundleUserSchema,
    "applications": BundleApplicationSchema, "domains": BundleDomainSchema, "categories": BundleCategorySchema,
    "domain_compatibilities": BundleDomainCompatibilitySchema, "restriction_values": BundleRestrictionValuesSchema,
    "products": BundleProductSchema, "items": BundleItemSchema, "compatibilities": BundleCompatibilitySchema,
    "suggestions": BundleSuggestionSchema, "exceptions": BundleExceptionSchema, "orders": BundleOrderSchema,
    "claims": BundleClaimSchema, "chart_domains": BundleChartDomainSchema, "technical_specs": BundleTechnicalSpecSchema,
    "charts": BundleChartSchema, "domain_discovery": BundleDomainDiscoverySchema,
}
