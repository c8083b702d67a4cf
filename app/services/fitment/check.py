"""B3: does one item fit one vehicle (a product) or a partly known one (attribute values)?"""
from dataclasses import dataclass, field

from app.models import Compatibility, CompatibilityRule, Product
from app.services.auth.ownership import item_not_found, require_item, require_item_id
from app.services.finder.domains import Known
from app.services.fitment import queries
from app.services.fitment.search import COMPATIBLE, UNDETERMINED, require_product
from app.services.fitment.vehicles import match_vehicles, require_known_attributes, vehicle_domains
from app.services.fitment.visibility import buyer_note, buyer_restrictions

NOT_COMPATIBLE = "NOT_COMPATIBLE"
MAX_PRODUCT_IDS = 50


@dataclass
class CompatibilityCheck:
    compatibility_status: str
    product_ids: list = field(default_factory=list)
    note: str = None
    restrictions: list = None


def check_compatibility(item_id, product_id=None, attributes=None):
    """By `product_id`, or by `attributes` ([{id, value_id}]); closed and paused items answer too."""
    if product_id is not None:
        require_item_id(item_id)
        return _check_product(item_id, product_id)
    item = require_item(item_id)
    known = [Known(a["id"], (a["value_id"],), f"attributes.{n}.id") for n, a in enumerate(attributes)]
    return _check_vehicle(item, known)


def _check_product(item_id, product_id):
    row = queries.check_item_product(item_id, product_id)
    if row is None:
        raise item_not_found(item_id)
    item_site, found, site_id, rule_id, compat_id, note, note_status, restrictions, universal_id = row
    if found is None:
        require_product(product_id)  # raises the 404
    if site_id != item_site or rule_id is None or (compat_id is None and universal_id is None):
        return CompatibilityCheck(NOT_COMPATIBLE)
    return CompatibilityCheck(COMPATIBLE, [product_id], buyer_note(note, note_status),
                              buyer_restrictions(restrictions) or None)


def _check_vehicle(item, attributes):
    domains = vehicle_domains(item.site_id)
    require_known_attributes(domains, attributes)
    loadable = set(CompatibilityRule.select(CompatibilityRule.compatible_domain)
                   .where(CompatibilityRule.domain == item.domain_id, CompatibilityRule.type == "EXTENSION")
                   .tuples())
    loadable = {domain_id for (domain_id,) in loadable}
    matched = match_vehicles({d: a for d, a in domains.items() if d in loadable}, attributes)
    if matched.total == 0:
        return CompatibilityCheck(NOT_COMPATIBLE)
    single = matched.single_product()
    if single is not None:
        return _check_product(item.id, single[0])
    # The matched products come by key; their ids are read for the answer (by the key's unique index).
    fitting = Product.select(Product.id).where(Product.key.in_(matched.product_keys()))
    if item.is_universal:  # it fits every product of the domains it may load, which are the ones matched
        fits = matched.total
    else:
        fitting = fitting.join(Compatibility, on=((Compatibility.product == Product.key)
                                                  & (Compatibility.item == item.key)))
        fits = fitting.count()
    if not fits:
        return CompatibilityCheck(NOT_COMPATIBLE)
    ids = [pid for (pid,) in fitting.order_by(Product.id).limit(MAX_PRODUCT_IDS).tuples()]
    return CompatibilityCheck(COMPATIBLE if fits >= matched.total else UNDETERMINED, ids)
