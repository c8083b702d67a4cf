"""All models, in the order their tables must be created."""
from app.models.auth import AccessToken, Application, AuthorizationCode, RefreshToken, User
from app.models.bulk import BulkItem, BulkJob, BulkRow
from app.models.catalog import (
                                AttributeScope,
                                CatalogVersion,
                                Category,
                                CategoryRule,
                                CompatibilityDomain,
                                CompatibilityRule,
                                Domain,
                                DomainDiscoveryTerm,
                                Product,
                                ProductAttribute,
                                ProductKeyOrder,
                                RestrictionAttribute,
                                RestrictionValue,
)
from app.models.charts import Chart, ChartDomain, ChartFilterValue, ChartRow, TechnicalSpec
from app.models.common import Currency, Site
from app.models.compatibilities import Compatibility
from app.models.finder import FinderDomain, FinderFacet, FinderPairFacet
from app.models.history import CompatibilityChange
from app.models.items import CompatibilityException, Item, Suggestion
from app.models.notifications import Notification, NotificationEvent
from app.models.orders import Claim, Order
from app.models.scrolls import ItemScroll

ALL_MODELS = [
    Currency, Site, User, Application, AccessToken, RefreshToken, AuthorizationCode,
    Domain, Category, CompatibilityDomain, CompatibilityRule, CategoryRule,
    RestrictionAttribute, RestrictionValue, Product, AttributeScope, ProductAttribute, ProductKeyOrder,
    DomainDiscoveryTerm,
    Item, Suggestion, CompatibilityException, Compatibility, Order, Claim,
    ChartDomain, TechnicalSpec, Chart, ChartRow, ChartFilterValue, CatalogVersion, CompatibilityChange,
    FinderDomain, FinderFacet, FinderPairFacet, BulkJob, BulkRow, BulkItem, ItemScroll,
    NotificationEvent, Notification,
]

__all__ = [m.__name__ for m in ALL_MODELS] + ["ALL_MODELS"]
