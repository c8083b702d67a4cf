"""Shared helpers of the change-history and ETag tests (extensions.md, H)."""
from app.models import Compatibility, CompatibilityChange
from tests.compat_data import SELLER_H, url


def history(client, item_id="MLA100", headers=SELLER_H, **query):
    response = client.get(url(item_id, "/history"), query_string=query, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def records(client, item_id="MLA100", **query):
    """Every record of the item, oldest first."""
    return list(reversed(history(client, item_id, limit=200, **query)["results"]))


def etag(client, item_id="MLA100", headers=SELLER_H):
    response = client.get(url(item_id), headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.headers["ETag"]


def stored(run_db, item_id="MLA100"):
    """(compatibility rows, change records) of the item, straight from the database."""
    def read():
        rows = sorted((c.id, c.product_id, c.note, c.note_status, c.restrictions)
                      for c in Compatibility.select().where(Compatibility.item == item_id))
        changes = list(CompatibilityChange.select().where(CompatibilityChange.item_id == item_id)
                       .order_by(CompatibilityChange.id).dicts())
        return rows, changes
    return run_db(read)
