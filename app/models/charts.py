"""Size charts: the domains that support them, technical specification sheets, charts and rows."""
from peewee import BigIntegerField, CharField, ForeignKeyField, IntegerField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.catalog import Domain
from app.models.common import Site


class ChartDomain(BaseModel):
    """A domain active for size charts in a site (endpoint 22)."""
    site = ForeignKeyField(Site, on_delete="CASCADE")
    domain = ForeignKeyField(Domain, on_delete="CASCADE")

    class Meta:
        indexes = ((("site", "domain"), True),)


class TechnicalSpec(BaseModel):
    """A sheet of a domain: SPECIFICATIONS, or GRIDS for one set of grid_template_required values."""
    domain = ForeignKeyField(Domain, on_delete="CASCADE")
    section = CharField(max_length=20)
    when = JSONField(default=dict)  # {attribute_id: value_id}
    when_key = CharField(max_length=500, default="")  # canonical text of `when`, for uniqueness
    input = JSONField(default=dict)
    output = JSONField(default=dict)

    class Meta:
        indexes = ((("domain", "section", "when_key"), True),)


class Chart(BaseModel):
    id = CharField(primary_key=True, max_length=40)
    site = ForeignKeyField(Site, on_delete="CASCADE")
    domain_id = CharField(max_length=100)  # without the site prefix
    type = CharField(max_length=10)  # BRAND | STANDARD | SPECIFIC
    seller_id = BigIntegerField(null=True)
    main_attribute_id = CharField(max_length=100)
    secondary_attribute_id = CharField(max_length=100, null=True)
    measure_type = CharField(max_length=30, null=True)
    names = JSONField(default=dict)
    attributes = JSONField(default=list)
    date_created = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("site", "domain_id", "type"), False), (("seller_id",), False))


class ChartRow(BaseModel):
    id = CharField(primary_key=True, max_length=60)  # "<chart_id>:<n>"
    chart = ForeignKeyField(Chart, backref="rows", on_delete="CASCADE")
    position = IntegerField()
    attributes = JSONField(default=list)


class ChartFilterValue(BaseModel):
    """A chart-level attribute value (GENDER, BRAND, …) in a column, so searches filter by index."""
    chart = ForeignKeyField(Chart, on_delete="CASCADE")
    attribute_id = CharField(max_length=100)
    value_id = CharField(max_length=100, null=True)
    value_key = CharField(max_length=255, null=True)  # value name lower-cased

    class Meta:
        primary_key = False
        indexes = ((("attribute_id", "value_key", "chart"), False), (("chart", "attribute_id"), False))
