"""Endpoint 3's body is dumped through DirectAccess (schemas/common.py), which reads each field
straight from the item: it answers exactly what marshmallow's own dump of ItemSchema answers."""
import datetime

from app.data import demo
from app.models import Item, Site
from app.services import items
from schemas.items import AttributeValueSchema, ItemAttributeSchema, ItemSchema
from tests import helpers

BUENOS_AIRES = datetime.timezone(datetime.timedelta(hours=-3))


def marshmallow_dump(schema, obj):
    return helpers.marshmallow_dump(schema, obj, (ItemSchema, ItemAttributeSchema, AttributeValueSchema))


def test_every_demo_item_dumps_as_marshmallow_dumps_it(load_bundle, run_db):
    load_bundle(demo.build_demo_bundle())

    def both():
        pairs = []
        # Each row as the route guard reads it: every column and the site's language.
        for row in Item.select(Item, Site.language).join(Site, on=(Item.site == Site.id)).objects():
            item = items.get_item(row)
            pairs.append((ItemSchema().dump(item), marshmallow_dump(ItemSchema(), item)))
        return pairs

    pairs = run_db(both)
    assert len(pairs) > 100
    assert all(direct == generic for direct, generic in pairs)
    assert any(direct["attributes"] for direct, _ in pairs)


def test_odd_stored_values_dump_as_marshmallow_dumps_them():
    """Missing keys take their dump_default (or are left out), odd types are converted by the
    field, aware datetimes are shown in UTC, a restricted schema (Pluck) keeps its fields."""
    item = Item(id="MLA1", site="MLA", title="t", seller=1001, category="MLA1", domain="MLA-X",
                official_store_id=None, status="active", price=10, currency_id=None, deal_ids=[],
                automatic_relist=1, warranty=None, catalog_product_id=None, parent_item_id=None, health=None,
                catalog_listing=False, date_created=datetime.datetime(2026, 1, 1, 9, 30),
                last_updated=datetime.datetime(2026, 1, 1, 9, 30, tzinfo=BUENOS_AIRES))
    item.tags = ["incomplete_compatibilities"]
    item.shown_attributes = [{"id": "A"},
                             {"id": "B", "value_id": 7, "values": [{"id": 7}, {"name": b"x", "struct": {"n": 1}}]},
                             {"id": "C", "values": None, "update": 1}]
    direct = ItemSchema().dump(item)
    assert direct == marshmallow_dump(ItemSchema(), item)
    assert direct["last_updated"] == "2026-01-01T12:30:00Z" and direct["price"] == 10.0
    assert direct["attributes"][0] == {"id": "A", "name": None, "value_id": None, "value_name": None,
                                       "values": [], "value_type": None}
    assert ItemSchema(only=("id",)).dump(item) == {"id": "MLA1"}
