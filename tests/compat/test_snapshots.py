"""Endpoint 21: the compatibility snapshot of an order with an incompatibility claim."""
import pytest

from app.models import Compatibility
from tests.bundles import MLB_SELLER, OTHER_SELLER, SELLER, TOKENS
from tests.helpers import assert_error, bearer
from tests.reads_data import (
    MLA100_COMPATS,
    NO_SELECTION_RESTRICTIONS,
    ORDER_CONFIRMED,
    ORDER_CONFIRMED_OTHER,
    ORDER_DELETED,
    ORDER_INCOMPATIBLE,
    ORDER_NO_CLAIMS,
    ORDER_NO_SELECTION,
    ORDER_NO_SNAPSHOT,
    ORDER_UNIVERSAL,
    SELECTION,
    UNIVERSAL_ID,
)

NOT_FOUND = "Compatibility snapshot for the order id not found"
NOT_SELLER = "Caller must be the seller of the item"
NO_CLAIMS = "The compatibility snapshot can only be retrieved for orders with claims"


def snapshot_of(client, order_id, token=TOKENS[SELLER]):
    return client.get(f"/compats-snapshots/orders/{order_id}", headers=bearer(token))


def ok(client, order_id, token=TOKENS[SELLER]):
    response = snapshot_of(client, order_id, token)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_confirmed_snapshot_names_the_current_compatibility(client, reads_loaded):
    assert ok(client, ORDER_CONFIRMED) == {
        "item_id": "MLA100", "product_id": "MLA90001", "seller_id": str(SELLER), "user_selection": SELECTION,
        "compatibility_status": {"compatibility": "CONFIRMED", "compatibility_id": MLA100_COMPATS["MLA90001"]},
        "compatibility_deleted": False,
        "date_created": "2026-02-01T10:00:00Z", "date_updated": "2026-02-03T09:00:00Z"}


def test_snapshot_seller_id_is_a_string(client, reads_loaded):
    assert ok(client, ORDER_CONFIRMED)["seller_id"] == "1001"


def test_date_updated_is_absent_when_not_stored(client, reads_loaded):
    body = ok(client, ORDER_CONFIRMED_OTHER)
    assert "date_updated" not in body and body["date_created"] == "2026-02-01T10:00:00Z"


def test_compatibility_deleted_when_the_item_no_longer_lists_the_vehicle(client, reads_loaded):
    body = ok(client, ORDER_DELETED)
    assert body["compatibility_deleted"] is True and body["product_id"] == "MLA90009"
    assert body["compatibility_status"] == {"compatibility": "CONFIRMED"}


def test_compatibility_deleted_is_derived_from_the_items_current_compatibilities(client, reads_loaded, run_db):
    assert ok(client, ORDER_CONFIRMED)["compatibility_deleted"] is False
    run_db(lambda: Compatibility.delete().where(Compatibility.id == MLA100_COMPATS["MLA90001"]).execute())
    body = ok(client, ORDER_CONFIRMED)
    assert body["compatibility_deleted"] is True
    assert body["compatibility_status"] == {"compatibility": "CONFIRMED"}


def test_no_user_selection_carries_note_and_restrictions_and_no_product(client, reads_loaded):
    body = ok(client, ORDER_NO_SELECTION)
    assert "product_id" not in body
    assert body["compatibility_status"] == {"compatibility": "NO_USER_SELECTION",
                                            "note": "Verificar medidas antes de comprar",
                                            "restrictions": NO_SELECTION_RESTRICTIONS}
    assert body["compatibility_deleted"] is False and body["user_selection"] == {"label_values": []}


def test_incompatible_snapshot_has_no_compatibility_id_and_is_not_deleted(client, reads_loaded):
    body = ok(client, ORDER_INCOMPATIBLE)
    assert body["compatibility_status"] == {"compatibility": "INCOMPATIBLE"}
    assert body["compatibility_deleted"] is False


def test_universal_item_confirms_through_its_universal_compatibility(client, reads_loaded):
    body = ok(client, ORDER_UNIVERSAL)
    assert body["compatibility_status"] == {"compatibility": "CONFIRMED", "compatibility_id": UNIVERSAL_ID}
    assert body["compatibility_deleted"] is False


# --- errors, in the order they are checked -----------------------------------------------

def test_snapshot_needs_a_valid_token(client, reads_loaded):
    assert_error(client.get(f"/compats-snapshots/orders/{ORDER_CONFIRMED}"), 401, "invalid_token")
    body = assert_error(snapshot_of(client, ORDER_CONFIRMED, token="expired"), 401, "invalid_token")
    assert body["message"].startswith("Invalid access token")


@pytest.mark.parametrize("order_id", [2999999999, "abc", "12.5", "-1", "9" * 40])
def test_unknown_or_malformed_order_answers_400_not_found(client, reads_loaded, order_id):
    assert_error(snapshot_of(client, order_id), 400, "snapshot_not_found", NOT_FOUND)


def test_order_without_snapshot_answers_400_not_found(client, reads_loaded):
    assert_error(snapshot_of(client, ORDER_NO_SNAPSHOT), 400, "snapshot_not_found", NOT_FOUND)


@pytest.mark.parametrize("seller", [OTHER_SELLER, MLB_SELLER])
def test_only_the_items_seller_reads_the_snapshot(client, reads_loaded, seller):
    assert_error(snapshot_of(client, ORDER_CONFIRMED, TOKENS[seller]), 403, "forbidden", NOT_SELLER)


def test_order_without_claims_answers_403(client, reads_loaded):
    assert_error(snapshot_of(client, ORDER_NO_CLAIMS), 403, "order_without_claims", NO_CLAIMS)


def test_a_non_seller_does_not_learn_whether_the_order_has_claims(client, reads_loaded):
    assert_error(snapshot_of(client, ORDER_NO_CLAIMS, TOKENS[OTHER_SELLER]), 403, "forbidden", NOT_SELLER)


def test_unknown_order_is_not_found_before_the_seller_check(client, reads_loaded):
    assert_error(snapshot_of(client, 2999999999, TOKENS[OTHER_SELLER]), 400, "snapshot_not_found")
