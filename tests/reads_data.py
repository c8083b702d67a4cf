"""Test data for the read and report endpoints: compatibilities, suggestions, orders and claims
added to `base_bundle()`, with the figures the tests expect spelled out once here."""
from tests.bundles import POSITION_VALUES, base_bundle, item


def compat_id(n):
    return f"00000000-0000-4000-8000-{n:012d}"


FRONT = [{"attribute_id": "POSITION", "attribute_values": [{"values": [POSITION_VALUES[0]]}]}]
NO_SELECTION_RESTRICTIONS = [{"attribute_id": "POSITION", "attribute_values": [{"values": [POSITION_VALUES[1]]}]}]

# MLA100: three compatibilities; two notes, one with restrictions; claims 2 + 1 on the first two.
MLA100_COMPATS = {"MLA90001": compat_id(1), "MLA90002": compat_id(2), "MLA90003": compat_id(3)}
UNIVERSAL_ID = compat_id(102)
MLB_COMPAT_ID = compat_id(300)

ORDER_CONFIRMED = 2000000001        # MLA100 / MLA90001, 2 claims, date_updated stored
ORDER_CONFIRMED_OTHER = 2000000002  # MLA100 / MLA90002, 1 claim, no date_updated
ORDER_DELETED = 2000000003          # MLA100 / MLA90009, which MLA100 no longer lists, 1 claim
ORDER_NO_SELECTION = 2000000004     # MLA100, no vehicle chosen, 1 claim
ORDER_NO_CLAIMS = 2000000005        # MLA100 / MLA90003, no claim
ORDER_NO_SNAPSHOT = 2000000006      # MLA100, no snapshot, 1 claim
ORDER_INCOMPATIBLE = 2000000007     # MLA100 / MLA90010, told incompatible, 1 claim
ORDER_MLB = 2000000008              # MLB300 / MLB90001, 1 claim
ORDER_UNIVERSAL = 2000000009        # MLA102 (universal) / MLA90020, 1 claim

SELECTION = {"label_values": [
    {"label": "Marca", "value_name": "Volkswagen", "values": [{"attribute_id": "BRAND", "value_id": "60249"}]},
    {"label": "Modelo", "value_name": "Gol", "values": [{"attribute_id": "MODEL", "value_id": "62109"}]}]}


def _snapshot(product_id, compatibility, **extra):
    status = {"compatibility": compatibility}
    status.update(extra.pop("status", {}))
    body = {"user_selection": SELECTION if product_id else {"label_values": []},
            "compatibility_status": status, "date_created": "2026-02-01T10:00:00Z", **extra}
    if product_id:
        body["product_id"] = product_id
    return body


def _order(order_id, item_id, snapshot, buyer=9001):
    order = {"id": order_id, "item_id": item_id, "buyer_id": buyer, "date_created": "2026-02-01T10:00:00Z"}
    if snapshot is not None:
        order["snapshot"] = snapshot
    return order


def reads_bundle():
    """base_bundle() plus the items, compatibilities, suggestions, exception, orders and claims
    that the read endpoints report on."""
    bundle = base_bundle()
    bundle["items"][1]["attributes"] = [  # a stored HAS_COMPATIBILITIES must not leak: MLA101 has none
        {"id": "HAS_COMPATIBILITIES", "name": "Tiene compatibilidades", "value_id": "242085",
         "value_name": "Sí", "values": [{"id": "242085", "name": "Sí", "struct": None}], "value_type": "boolean"}]
    bundle["items"][0].update(
        warranty="6 meses", health=0.85, date_created="2026-01-10T12:00:00Z", last_updated="2026-01-11T08:30:00Z",
        attributes=[{"id": "BRAND", "name": "Marca", "value_id": None, "value_name": "Frasle",
                     "values": [{"id": None, "name": "Frasle", "struct": None}], "value_type": "string"}])
    bundle["items"] += [
        item("MLA104", "MLA1747", "MLA-BRAKE_PADS", status="paused", title="Pastillas pausadas"),
        item("MLA105", "MLA1747", "MLA-BRAKE_PADS", title="Pastillas sin compatibilidades"),
        item("MLA106", "MLA1747", "MLA-BRAKE_PADS", status="paused", title="Pastillas pausadas compatibles"),
    ]
    bundle["compatibilities"] = [
        {"id": MLA100_COMPATS["MLA90001"], "item_id": "MLA100", "product_id": "MLA90001", "source": "SELLER",
         "note": "Solo con ABS", "note_status": "APPROVED", "restrictions": FRONT},
        {"id": MLA100_COMPATS["MLA90002"], "item_id": "MLA100", "product_id": "MLA90002", "source": "SELLER"},
        {"id": MLA100_COMPATS["MLA90003"], "item_id": "MLA100", "product_id": "MLA90003", "source": "CATALOGO",
         "note": "Con ABS", "note_status": "PENDING"},
        {"id": UNIVERSAL_ID, "item_id": "MLA102", "universal": True},
        {"id": compat_id(106), "item_id": "MLA106", "product_id": "MLA90010"},
        {"id": MLB_COMPAT_ID, "item_id": "MLB300", "product_id": "MLB90001"},
    ]
    bundle["suggestions"] = [
        {"item_id": "MLA100", "product_id": "MLA90011"},
        {"item_id": "MLA101", "product_id": "MLA90004"},
        {"item_id": "MLA101", "product_id": "MLA90005"},
        {"item_id": "MLB300", "product_id": "MLB90002"},
    ]
    bundle["exceptions"] = [{"item_id": "MLA103", "comment": "El modelo 2026 aún no está en el catálogo"}]
    bundle["orders"] = [
        _order(ORDER_CONFIRMED, "MLA100", _snapshot("MLA90001", "CONFIRMED", date_updated="2026-02-03T09:00:00Z")),
        _order(ORDER_CONFIRMED_OTHER, "MLA100", _snapshot("MLA90002", "CONFIRMED")),
        _order(ORDER_DELETED, "MLA100", _snapshot("MLA90009", "CONFIRMED")),
        _order(ORDER_NO_SELECTION, "MLA100", _snapshot(None, "NO_USER_SELECTION", status={
            "note": "Verificar medidas antes de comprar", "restrictions": NO_SELECTION_RESTRICTIONS})),
        _order(ORDER_NO_CLAIMS, "MLA100", _snapshot("MLA90003", "CONFIRMED")),
        _order(ORDER_NO_SNAPSHOT, "MLA100", None),
        _order(ORDER_INCOMPATIBLE, "MLA100", _snapshot("MLA90010", "INCOMPATIBLE")),
        _order(ORDER_MLB, "MLB300", _snapshot("MLB90001", "CONFIRMED")),
        _order(ORDER_UNIVERSAL, "MLA102", _snapshot("MLA90020", "CONFIRMED")),
    ]
    claimed = [ORDER_CONFIRMED, ORDER_CONFIRMED, ORDER_CONFIRMED_OTHER, ORDER_DELETED, ORDER_NO_SELECTION,
               ORDER_NO_SNAPSHOT, ORDER_INCOMPATIBLE, ORDER_MLB, ORDER_UNIVERSAL]
    bundle["claims"] = [{"id": 5000001 + n, "order_id": order_id, "date_created": "2026-02-05T10:00:00Z"}
                        for n, order_id in enumerate(claimed)]
    return bundle

