"""Shared helpers and data for the compatibility write and read tests."""
from peewee import JOIN

from app.models import Compatibility, Item, Product
from tests.bundles import MLB_SELLER, OTHER_SELLER, POSITION_VALUES, SELLER, TOKENS, base_bundle
from tests.helpers import bearer

SELLER_H = bearer(TOKENS[SELLER])
OTHER_H = bearer(TOKENS[OTHER_SELLER])
MLB_H = bearer(TOKENS[MLB_SELLER])

FRONT, REAR = POSITION_VALUES
GOL_2010 = ("MLA90001", "MLA90002")
VW = [f"MLA9{n:04d}" for n in range(1, 13)]  # every Volkswagen child product
GOL = ["MLA90001", "MLA90002", "MLA90005", "MLA90006", "MLA90009", "MLA90010"]


def product(pid, source="DEFAULT", **extra):
    return {"id": pid, "creation_source": source, **extra}


def family(domain="MLA-CARS_AND_VANS", source="DEFAULT", **attributes):
    """family(BRAND={"value_name": "Volkswagen"}, ...)"""
    return {"domain_id": domain, "creation_source": source,
            "attributes": [{"id": key, **value} for key, value in attributes.items()]}


def position(*groups):
    """position([FRONT], [FRONT, REAR]) as a restriction list."""
    return [{"attribute_id": "POSITION",
             "attribute_values": [{"values": [{"value_id": v["value_id"], "value_name": v["value_name"]}
                                              for v in group]} for group in groups]}]


def url(item_id="MLA100", suffix=""):
    return f"/items/{item_id}/compatibilities{suffix}"


def seeded_bundle(compatibilities=(), suggestions=(), exceptions=(), orders=(), claims=(), items=()):
    """base_bundle() plus rows the tests need in place before they call the API."""
    bundle = base_bundle()
    bundle["items"] += list(items)
    bundle["compatibilities"] = list(compatibilities)
    bundle["suggestions"] = list(suggestions)
    bundle["exceptions"] = list(exceptions)
    bundle["orders"] = list(orders)
    bundle["claims"] = list(claims)
    return bundle


def compat(item_id, product_id=None, source="SELLER", **extra):
    row = {"item_id": item_id, "source": source, **extra}
    if product_id is None:
        row["universal"] = True
    else:
        row["product_id"] = product_id
    return row


def claimed_order(order_id, item_id, product_id):
    return {"id": order_id, "item_id": item_id, "buyer_id": 9001, "date_created": "2026-02-01T10:00:00Z",
            "snapshot": {"product_id": product_id, "compatibility_status": {"compatibility": "CONFIRMED"},
                         "date_created": "2026-02-01T10:00:00Z"}}


def listing(client, item_id="MLA100", headers=SELLER_H, **query):
    response = client.get(url(item_id), query_string={"extended": "true", **query}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def full_bundle(**seeds):
    """seeded_bundle() plus the odd cases: an item whose category has no compatibility configured
    (MLA104), a closed item (MLA105), an MLB item of seller 1001 (MLB301), a child product of a
    domain the brake pads are not compatible with (MLA70001), and motorcycles, compatible with
    brake pads by a rule whose type does not support loading (MLA60001)."""
    from tests.bundles import item

    bundle = seeded_bundle(**seeds)
    bundle["categories"].append({"id": "MLA9999", "site_id": "MLA", "name": "Otras pastillas",
                                 "domain_id": "MLA-BRAKE_PADS"})
    bundle["domains"].append({"id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Motos"})
    for entry in bundle["domain_compatibilities"]:
        if entry["domain_id"] == "MLA-BRAKE_PADS":
            entry["compatibilities"].append({
                "compatible_domain_id": "MLA-MOTORCYCLES", "type": "REPLACEMENT", "required": False,
                "restrictions": [], "categories": [{"id": "MLA1747", "required": False}]})
    bundle["products"] += [
        {"id": "MLA70000", "domain_id": "MLA-BRAKE_PADS", "site_id": "MLA", "name": "Pastilla",
         "attributes": [{"id": "BRAND", "value_id": "1", "value_name": "Frasle"}]},
        {"id": "MLA70001", "domain_id": "MLA-BRAKE_PADS", "site_id": "MLA", "name": "Pastilla X",
         "parent_id": "MLA70000", "attributes": [{"id": "BRAND", "value_id": "1", "value_name": "Frasle"}]},
        {"id": "MLA60000", "domain_id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Honda",
         "attributes": [{"id": "BRAND", "value_id": "2", "value_name": "Honda"}]},
        {"id": "MLA60001", "domain_id": "MLA-MOTORCYCLES", "site_id": "MLA", "name": "Honda CG",
         "parent_id": "MLA60000", "attributes": [{"id": "BRAND", "value_id": "2", "value_name": "Honda"}]}]
    bundle["items"] += [item("MLA104", "MLA9999", "MLA-BRAKE_PADS"),
                        item("MLA105", "MLA1747", "MLA-BRAKE_PADS", status="closed"),
                        item("MLB301", "MLB2201", "MLB-BRAKE_PADS", site="MLB")]
    return bundle


def compatibility_rows(item_id=None):
    """The stored compatibility rows (of the item `item_id`, or all), each with its item's and its
    product's text ids as `item_id` and `product_id` (the rows hold their keys)."""
    query = (Compatibility.select(Compatibility, Item.id.alias("item_id"), Product.id.alias("product_id"))
             .join(Item, on=(Item.key == Compatibility.item))
             .join(Product, JOIN.LEFT_OUTER, on=(Product.key == Compatibility.product), src=Compatibility))
    return list((query if item_id is None else query.where(Item.id == item_id)).objects())
