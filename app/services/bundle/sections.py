"""The catalog bundle's sections (import-format.md), one record each: its schema, its key, its
references, how it is written and exported, and what its import changes besides its own rows.

Everything else is derived from these records: the sections a bundle may hold, the order they are
written in (this one: a section after those its records point to), the lookups and references
the checks resolve, which items get their derived state refreshed, and which tables are analysed.
A new section is one more record here, its schema in schemas/bundle.py, and its loader and
exporter (with a check in references.py when walking its references is not enough)."""
from collections.abc import Callable
from dataclasses import dataclass

from app.models import (
    Application,
    Category,
    Compatibility,
    CompatibilityChange,
    Currency,
    Domain,
    FinderDomain,
    FinderFacet,
    FinderPairFacet,
    Item,
    Order,
    Product,
    ProductAttribute,
    Site,
    User,
)
from app.services import history  # read as history.x when called: the history package imports this one
from app.services.bundle import compatibilities, export, load, products, references
from schemas import bundle as schemas
from schemas.history import BundleChangeSchema


@dataclass(frozen=True)
class Ref:
    """A field of a section's records naming a record of a lookup table (`table`, e.g. "site").

    `field` may be a dotted path into a nested object ("snapshot.product_id"). `same_site`: the
    record referred to must belong to the referring record's `site_id` (when both say one)."""
    field: str
    table: str
    required: bool = True
    same_site: bool = False

    @property
    def path(self):
        """The field's parts when it is a dotted path, else None."""
        return tuple(self.field.split(".")) if "." in self.field else None

    def value(self, record):
        if "." not in self.field:
            return record.get(self.field)
        for part in self.field.split("."):
            record = (record or {}).get(part)
        return record


@dataclass(frozen=True)
class Lookup:
    """The section's records by key, for the references that point to them (`name` is the word the
    problems use: "unknown domain X"): the bundle's own records first (unless not `registered`),
    then the stored rows of `model`. `columns` are the fields the checks and loaders read, named as
    in the record and as the model's attributes (the integer `key` only the stored rows give)."""
    name: str
    model: type
    columns: tuple = ()
    key: str = "id"
    registered: bool = True


@dataclass(frozen=True)
class Section:
    """One section of the bundle.

    - `load(records, ctx)` writes the validated records (ctx: references.Context); `export()`
      answers the stored records in the bundle's shape.
    - `key`: the fields that identify a record; a repeat within the bundle is a problem.
    - `references` resolve before the checks; `check(ctx, section)` replaces walking them.
    - `writes`: the tables an import of this section changes (derived state and history
      included), which are the ones analysed after it; None when not declared (all are).
    - `item_field` names the item whose derived state a record changes (refreshed after the
      load, and locked before it); `every_item`: the section may change any item's.
    - `feeds_predictor`: what the category predictor learns from, or the chart search keeps per
      worker; an import of it makes a new catalog version.
    - `vacuumed`: the tables a large load of it VACUUMs after commit (PostgreSQL)."""
    name: str
    schema: type
    load: Callable
    export: Callable
    key: tuple = ()
    references: tuple = ()
    check: Callable | None = None
    lookup: Lookup | None = None
    writes: tuple | None = None
    item_field: str | None = None
    every_item: bool = False
    feeds_predictor: bool = False
    vacuumed: tuple = ()


def _load_history(records, ctx):
    history.load_history(records, ctx)


def _export_history():
    return history.export_history()


def _load_claims(records, ctx):
    # A claim changes the reputation the compatibility list shows, so its ETag (H2) and its
    # notification: only where the import changed the claims, so a re-import notifies nobody.
    history.touch_claimed_items(load.load_claims(records, ctx))


SITE, DOMAIN = Ref("site_id", "site"), Ref("domain_id", "domain")

SECTIONS = (
    Section("currencies", schemas.BundleCurrencySchema, load.load_currencies, export.currencies, key=("id",),
            lookup=Lookup("currency", Currency)),
    Section("sites", schemas.BundleSiteSchema, load.load_sites, export.sites, key=("id",),
            references=(Ref("default_currency_id", "currency"),), lookup=Lookup("site", Site)),
    Section("users", schemas.BundleUserSchema, load.load_users, export.users, key=("id",),
            references=(Ref("site_id", "site", required=False),), lookup=Lookup("user", User)),
    Section("applications", schemas.BundleApplicationSchema, load.load_applications, export.applications,
            key=("client_id",), references=(Ref("owner_id", "user"),), check=references.check_applications,
            lookup=Lookup("application", Application, key="client_id", registered=False)),
    Section("domains", schemas.BundleDomainSchema, load.load_domains, export.domains, key=("id",),
            references=(SITE,), lookup=Lookup("domain", Domain, ("site_id",)), feeds_predictor=True),
    Section("categories", schemas.BundleCategorySchema, load.load_categories, export.categories, key=("id",),
            references=(SITE, Ref("domain_id", "domain", required=False, same_site=True)),
            lookup=Lookup("category", Category, ("site_id", "domain_id")), feeds_predictor=True),
    Section("domain_compatibilities", schemas.BundleDomainCompatibilitySchema, load.load_domain_compatibilities,
            export.domain_compatibilities, key=("domain_id",), references=(DOMAIN,),
            check=references.check_domain_compatibilities, every_item=True),
    Section("restriction_values", schemas.BundleRestrictionValuesSchema, load.load_restriction_values,
            export.restriction_values, key=("main_domain_id", "secondary_domain_id"),
            references=(Ref("main_domain_id", "domain"), Ref("secondary_domain_id", "domain"))),
    Section("products", schemas.BundleProductSchema, products.load_products, export.products, key=("id",),
            references=(DOMAIN, Ref("site_id", "site", required=False), Ref("parent_id", "product", required=False)),
            check=references.check_products,
            lookup=Lookup("product", Product, ("site_id", "domain_id", "parent_id", "key")),
            writes=(Product, ProductAttribute, FinderDomain, FinderFacet, FinderPairFacet),
            vacuumed=(Product, ProductAttribute, FinderFacet, FinderPairFacet)),
    Section("items", schemas.BundleItemSchema, load.load_items, export.items, key=("id",),
            references=(SITE, Ref("seller_id", "user"), Ref("category_id", "category", same_site=True),
                        Ref("domain_id", "domain", same_site=True), Ref("currency_id", "currency", required=False)),
            lookup=Lookup("item", Item, ("site_id", "domain_id", "category_id", "key")), writes=(Item,),
            item_field="id",
            feeds_predictor=True),
    Section("compatibilities", schemas.BundleCompatibilitySchema, compatibilities.load_compatibilities,
            export.compatibilities, references=(Ref("item_id", "item"), Ref("product_id", "product")),
            check=references.check_compatibilities, writes=(Compatibility, CompatibilityChange, Item),
            item_field="item_id"),
    Section("suggestions", schemas.BundleSuggestionSchema, load.load_suggestions, export.suggestions,
            key=("item_id", "product_id"), references=(Ref("item_id", "item"), Ref("product_id", "product")),
            check=references.check_suggestions, item_field="item_id"),
    Section("exceptions", schemas.BundleExceptionSchema, load.load_exceptions, export.exceptions,
            key=("item_id",), references=(Ref("item_id", "item"),), item_field="item_id"),
    Section("orders", schemas.BundleOrderSchema, load.load_orders, export.orders, key=("id",),
            references=(Ref("item_id", "item"), Ref("snapshot.product_id", "product", required=False)),
            lookup=Lookup("order", Order, ("item_id",))),
    Section("claims", schemas.BundleClaimSchema, _load_claims, export.claims, key=("id",),
            references=(Ref("order_id", "order"),)),
    Section("chart_domains", schemas.BundleChartDomainSchema, load.load_chart_domains, export.chart_domains,
            key=("site_id", "domain_id"), references=(SITE, Ref("domain_id", "domain", same_site=True)),
            feeds_predictor=True),
    Section("technical_specs", schemas.BundleTechnicalSpecSchema, load.load_technical_specs,
            export.technical_specs, key=("domain_id", "section", "when"), references=(DOMAIN,), feeds_predictor=True),
    Section("charts", schemas.BundleChartSchema, load.load_charts, export.charts, key=("id",),
            references=(SITE, Ref("seller_id", "user", required=False)), check=references.check_charts),
    Section("domain_discovery", schemas.BundleDomainDiscoverySchema, load.load_domain_discovery,
            export.domain_discovery, key=("site_id", "domain_id", "category_id"),
            references=(SITE, Ref("domain_id", "domain", same_site=True),
                        Ref("category_id", "category", required=False)), feeds_predictor=True),
    Section("compatibility_history", BundleChangeSchema, _load_history, _export_history, key=("id",),
            references=(Ref("item_id", "item"),), writes=(CompatibilityChange, Item)),
)
BY_NAME = {section.name: section for section in SECTIONS}
