"""Seller reports: the compatibility summary of several items (endpoint 11) and the
suggestion and complaint cards of one item (endpoint 6), each a few grouped queries."""
from dataclasses import dataclass

from peewee import OP, Case, Expression, fn

from app.errors import ApiError
from app.models import Compatibility, CompatibilityRule, Item, Product, Site, Suggestion
from app.services.auth.ownership import ITEM_ID, require_item, require_item_seller
from app.services.compat import reputation
from app.services.compat.families import require_domain


def _vehicle_scoped(items, domain_id):
    """Items whose compatibilities are narrowed to `domain_id` (a domain they can be compatible
    with); items of that very domain keep all theirs. 400 for items that are neither."""
    other_domains = {item.domain_id for item in items if item.domain_id != domain_id}
    compatible = {d for (d,) in CompatibilityRule.select(CompatibilityRule.domain)
                  .where(CompatibilityRule.domain.in_(list(other_domains)),
                         CompatibilityRule.compatible_domain == domain_id).tuples()} if other_domains else set()
    wrong = [item.id for item in items if item.domain_id != domain_id and item.domain_id not in compatible]
    if wrong:
        raise ApiError("domain_mismatch",
                       f"Domain {domain_id} is neither the domain of items {', '.join(wrong)} nor one they "
                       "can be compatible with (see endpoint 1)",
                       [{"code": "domain_mismatch", "message": f"Item {i} is not of domain {domain_id}",
                         "field": "items"} for i in wrong])
    return [item.id for item in items if item.domain_id != domain_id]


def _in_domain(domain_id):
    """The compatibility is of a product of `domain_id`, or the universal setting (which spans it).

    The product's domain is read by its key, a scalar subquery: one probe of the key's unique index
    per compatibility. PostgreSQL turned an EXISTS (or an IN) under the OR into a hash of every
    product of the domain, the whole product table for a vehicle domain."""
    vehicle = Product.alias("scoped_vehicle")
    domain = vehicle.select(vehicle.domain).where(vehicle.key == Compatibility.product)
    return Expression(domain, OP.EQ, domain_id) | (Compatibility.universal == True)  # noqa: E712


def _in_scope(items, scoped_ids, domain_id):
    """The compatibilities counted of `items` ({id: row}, in request order): every one of unscoped
    items, those of the domain for scoped ones."""
    scoped = set(scoped_ids)
    unscoped = [item.key for item_id, item in items.items() if item_id not in scoped]
    if not scoped:
        return Compatibility.item.in_(unscoped)
    condition = Compatibility.item.in_([items[i].key for i in scoped_ids]) & _in_domain(domain_id)
    return (Compatibility.item.in_(unscoped) | condition) if unscoped else condition


@dataclass(frozen=True)
class ItemSummary:
    """One item of a summary (SummarySchema)."""

    item_id: str
    item_title: str
    compatibilities_count: int
    compatibilities_claims_count: int
    notes_count: int
    restrictions_count: int


def compatibilities_summary(caller_id, domain_id, item_ids, max_items):
    """Endpoint 11: per item, counts of compatibilities, their claims, notes and restrictions."""
    item_ids = list(dict.fromkeys(item_ids))
    if len(item_ids) > max_items:
        raise ApiError("too_many_items",
                       f"At most {max_items} items per summary request; {len(item_ids)} were sent")
    malformed = [i for i in item_ids if not ITEM_ID.match(i)]
    if malformed:
        raise ApiError("invalid_item_id",
                       f"Malformed item ids: {', '.join(malformed)} (expected a site id and digits, e.g. MLA123)",
                       [{"code": "invalid_item_id", "message": f"{i} is not an item id", "field": "items"}
                        for i in malformed])
    require_domain(domain_id)
    items = {item.id: item for item in Item.select(Item.id, Item.key, Item.title, Item.seller, Item.domain)
             .where(Item.id.in_(item_ids))}
    missing = [i for i in item_ids if i not in items]
    if missing:
        raise ApiError("item_not_found", f"Items {', '.join(missing)} do not exist",
                       [{"code": "item_not_found", "message": f"Item {i} does not exist", "field": "items"}
                        for i in missing])
    foreign = [i for i in item_ids if items[i].seller_id != caller_id]
    if foreign:
        raise ApiError("forbidden", f"Items {', '.join(foreign)} belong to another seller: "
                       "a summary covers only the caller's items")
    scope = _in_scope({i: items[i] for i in item_ids}, _vehicle_scoped(list(items.values()), domain_id), domain_id)
    has_note = Compatibility.note.is_null(False) & (Compatibility.note != "")
    has_restrictions = Compatibility.restrictions.is_null(False) & (Compatibility.restrictions.length() > 0)
    ids = {item.key: item_id for item_id, item in items.items()}
    counts = {ids[key]: (total, notes or 0, restrictions or 0) for key, total, notes, restrictions in
              Compatibility.select(Compatibility.item, fn.COUNT(Compatibility.id),
                                   fn.SUM(Case(None, [(has_note, 1)], 0)),
                                   fn.SUM(Case(None, [(has_restrictions, 1)], 0)))
              .where(scope).group_by(Compatibility.item).tuples()}
    claims = reputation.claims_by_item(item_ids, where=scope)
    return [ItemSummary(i, items[i].title, counts.get(i, (0, 0, 0))[0], claims[i], *counts.get(i, (0, 0, 0))[1:])
            for i in item_ids]


CARD_TEXTS = {
    "es": {
        "SUGGESTED": (("Tienes 1 sugerencia de compatibilidad", "Tienes {n} sugerencias de compatibilidad"),
                      "Revisa los vehículos sugeridos y agrega a tu publicación los que correspondan."),
        "REPUTATION": (("1 compatibilidad con reclamos", "{n} compatibilidades con reclamos"),
                       "Compradores indicaron que el repuesto no era compatible con estos vehículos: "
                       "revísalos y corrige tus compatibilidades."),
    },
    "pt": {
        "SUGGESTED": (("Você tem 1 sugestão de compatibilidade", "Você tem {n} sugestões de compatibilidade"),
                      "Revise os veículos sugeridos e adicione ao seu anúncio os que correspondem."),
        "REPUTATION": (("1 compatibilidade com reclamações", "{n} compatibilidades com reclamações"),
                       "Compradores informaram que a peça não era compatível com estes veículos: "
                       "revise-os e corrija suas compatibilidades."),
    },
}


@dataclass(frozen=True)
class Card:
    """A card (CardSchema): texts in the site's language, with the quantity in the title."""

    title: str
    subtitle: str
    filter: str
    quantity: int


def card(language, card_filter, quantity):
    texts = CARD_TEXTS.get((language or "es")[:2], CARD_TEXTS["es"])
    (one, many), subtitle = texts[card_filter]
    return Card(one if quantity == 1 else many.format(n=quantity), subtitle, card_filter, quantity)


def compatibility_cards(caller_id, domain_id, item_id, filters, product_id=None):
    """Endpoint 6: one card per requested filter with something to show.

    SUGGESTED counts the item's pending suggestions, REPUTATION its compatibilities with at
    least one incompatibility claim, both within `domain_id` when that is a vehicle domain.
    `product_id` is only a hint; it must exist.
    """
    item = require_item_seller(require_item(item_id), caller_id)
    require_domain(domain_id)
    scoped = bool(_vehicle_scoped([item], domain_id))
    if product_id is not None and Product.get_or_none(Product.id == product_id) is None:
        raise ApiError("product_not_found", f"Product {product_id} does not exist")
    language = Site.select(Site.language).where(Site.id == item.site_id).scalar()
    cards = []
    for card_filter in dict.fromkeys(filters):
        if card_filter == "SUGGESTED":
            query = Suggestion.select().where(Suggestion.item == item.id)
            if scoped:
                query = query.join(Product, on=(Product.id == Suggestion.product_id)).where(
                    Product.domain == domain_id)
            quantity = query.count()
        else:
            where = _in_domain(domain_id) if scoped else None
            quantity = reputation.compatibilities_with_claims(item.id, where=where)
        if quantity > 0:
            cards.append(card(language, card_filter, quantity))
    return cards
