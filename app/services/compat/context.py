"""What every compatibility write reads first: the locked item, its domain rules for its
category, and the limits in force."""
from dataclasses import dataclass

from peewee import JOIN

from app.errors import ApiError
from app.models import CategoryRule, CompatibilityRule
from app.services import history
from app.services.compat import queries
from app.services.compat.restrictions import RestrictionCatalog

LOADABLE_TYPE = "EXTENSION"


@dataclass(frozen=True)
class Limits:
    max_products: int = 200
    max_families: int = 10
    max_per_item: int = 10000

    @classmethod
    def from_config(cls, config):
        return cls(config["COMPAT_MAX_PRODUCTS_PER_REQUEST"], config["COMPAT_MAX_FAMILIES_PER_REQUEST"],
                   config["COMPAT_MAX_PER_ITEM"])


def lock_item(item_id):
    """The item row, locked until the transaction ends, so concurrent writers of one item
    run one after the other and each sees the other's result. It is read afresh under the lock,
    not taken from the row the route guard read before the transaction: a write's rules and its
    If-Match check see the state they lock."""
    item = queries.locked_item(item_id)
    if item is None:
        raise ApiError("item_not_found", f"Item {item_id} does not exist")
    # If-Match is checked here, under the lock: no other writer can commit between the check and
    # this write's own commit (H3).
    history.item_locked(item)
    return item


def load_rules(item):
    """{compatible domain id: (CompatibilityRule, CategoryRule of the item's category or None)}."""
    rows = (CompatibilityRule
            .select(CompatibilityRule, CategoryRule)
            .join(CategoryRule, JOIN.LEFT_OUTER,
                  on=((CategoryRule.rule == CompatibilityRule.id) & (CategoryRule.category == item.category_id)))
            .where(CompatibilityRule.domain == item.domain_id)
            .order_by(CompatibilityRule.position, CompatibilityRule.id))
    rules = {}
    for rule in rows:
        category_rule = getattr(rule, "categoryrule", None)
        rules[rule.compatible_domain_id] = (rule, category_rule if category_rule and category_rule.id else None)
    return rules


def loadable_domain_ids(rules):
    """The domains a universal item is compatible with: every domain it may load."""
    return [domain_id for domain_id, (rule, _) in rules.items() if rule.type == LOADABLE_TYPE]


class CatalogReads:
    """What the writes read of the catalog (an item domain's rules for a category, a domain, the
    products a family selects), each read once. A write request reads afresh; a bulk job's consumer
    shares one between the items of its task slices for a while (app/services/bulk/queue.py), which
    then see the catalog as it was at its first read of it (an operator's import changes it, never a
    seller's write)."""

    def __init__(self, born=0.0):
        self.born = born
        self._read = {}

    def get(self, key, read):
        """`read()`, or what it answered for `key` before (an error is raised again on every call)."""
        if key not in self._read:
            self._read[key] = read()
        return self._read[key]


class ItemContext:
    """One item's write context: its rules and its restriction catalog, read once; `reads` the
    catalog reads it may share with other items' writes."""

    def __init__(self, item, reads=None):
        self.item = item
        self.reads = reads or CatalogReads()
        self.rules = self.reads.get(("rules", item.domain_id, item.category_id), lambda: load_rules(item))
        self.restrictions = RestrictionCatalog(item.domain_id)

    def category_rule(self, vehicle_domain_id, where=""):
        """The category's settings for loading products of this domain; 400 when the item's
        domain is not compatible with it or its category has no compatibility configured."""
        rule, category_rule = self.rules.get(vehicle_domain_id, (None, None))
        prefix = f"{where}: " if where else ""
        if rule is None or rule.type != LOADABLE_TYPE:
            raise ApiError("domain_not_compatible",
                           f"{prefix}items of domain {self.item.domain_id} cannot be made compatible with "
                           f"products of domain {vehicle_domain_id} (see GET /catalog/dumps/domains/"
                           f"{self.item.site_id}/compatibilities)")
        if category_rule is None:
            raise ApiError("category_not_configured",
                           f"{prefix}no compatibility with {vehicle_domain_id} is configured for category "
                           f"{self.item.category_id}")
        return category_rule

    def details(self, element, vehicle_domain_id, where):
        """The element's note and restrictions in stored form; 400 when the category does not
        allow them or the restrictions are not valid for the domain pair."""
        category_rule = self.category_rule(vehicle_domain_id, where)
        note = element.get("note") or None
        restrictions = element.get("restrictions") or None
        if note and category_rule.note_status == "DISABLED":
            raise ApiError("notes_disabled",
                           f"{where}: category {self.item.category_id} does not accept notes (note_status "
                           "DISABLED); send the compatibility without a note")
        if restrictions and category_rule.restrictions_status == "DISABLED":
            raise ApiError("restrictions_disabled",
                           f"{where}: category {self.item.category_id} does not accept restrictions "
                           "(restrictions_status DISABLED); send the compatibility without restrictions")
        if restrictions:
            restrictions = self.restrictions.validate(restrictions, vehicle_domain_id, f"{where}.restrictions")
        return note, restrictions

    def universal_category_rule(self):
        configured = [cr for rule, cr in self.rules.values() if cr is not None and rule.type == LOADABLE_TYPE]
        if not configured:
            raise ApiError("category_not_configured",
                           f"No compatibility is configured for category {self.item.category_id}")
        if not any(cr.universal_status == "ENABLED" for cr in configured):
            raise ApiError("universal_not_allowed",
                           f"Category {self.item.category_id} does not allow universal compatibilities "
                           "(universal_status DISABLED)")

    def state(self):
        """(has the universal setting, number of specific compatibilities), counted now."""
        universal, specific = False, 0
        for is_universal, count in queries.compatibility_counts(self.item.key):
            if is_universal:
                universal = count > 0
            else:
                specific = count
        return universal, specific
