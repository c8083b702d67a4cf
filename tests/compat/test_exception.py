"""Endpoints 19 and 20: the compatibility exception, and has_exception (rule 2)."""
import pytest

from app.models import CompatibilityException
from tests.compat.compat_data import OTHER_H, SELLER_H, compat, full_bundle, product, url
from tests.helpers import assert_error


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(compatibilities=[compat("MLA100", "MLA90001")],
                            exceptions=[{"item_id": "MLA103", "comment": "Falta el modelo 2026"}]))


def report(client, item_id="MLA101", comment="El modelo 2026 no está en el catálogo", headers=SELLER_H):
    return client.post(url(item_id, "/exception"), json={"comment": comment}, headers=headers)


def has_exception(client, item_id):
    response = client.get(url(item_id, "/exception"), headers=SELLER_H)
    assert response.status_code == 200
    return response.get_json()["has_exception"]


def test_reporting_an_exception_sets_has_exception(client, run_db):
    assert has_exception(client, "MLA101") is False
    response = report(client)
    assert response.status_code == 200 and response.get_json()["has_exception"] is True
    assert has_exception(client, "MLA101") is True
    assert run_db(lambda: CompatibilityException.get_by_id("MLA101").comment).startswith("El modelo")


def test_has_exception_is_false_once_the_item_has_a_compatibility(client):
    assert has_exception(client, "MLA103") is True
    client.post(url("MLA103"), json={"products": [product("MLA90001")]}, headers=SELLER_H)
    assert has_exception(client, "MLA103") is False


@pytest.mark.parametrize("item_id, code, in_message", [
    ("MLA105", "item_not_active", ""),
    ("MLA100", "item_has_compatibilities", ""),
    ("MLA104", "category_without_compatibilities", "MLA9999"),
    ("MLA103", "exception_already_reported", ""),
], ids=["closed_item", "item_with_compatibilities", "category_without_compatibilities", "second_exception"])
def test_item_that_cannot_report_an_exception_is_400(client, item_id, code, in_message):
    assert in_message in assert_error(report(client, item_id), 400, code)["message"]


def test_comment_missing_is_400(client):
    error = assert_error(client.post(url("MLA101", "/exception"), json={}, headers=SELLER_H), 400, "validation_error")
    assert error["cause"][0]["field"] == "comment"


def test_comment_over_255_characters_is_400(client):
    assert_error(report(client, comment="x" * 256), 400, "validation_error")
    assert report(client, comment="x" * 255).status_code == 200


def test_exception_needs_the_seller(client):
    assert_error(report(client, headers=OTHER_H), 403, "forbidden")
    assert_error(client.post(url("MLA101", "/exception"), json={"comment": "x"}), 403, "invalid_token")
    assert_error(report(client, "MLA999"), 404, "item_not_found")


def test_exception_read_errors(client):
    assert_error(client.get(url("MLA101", "/exception")), 401, "invalid_token")
    assert_error(client.get(url("MLA999", "/exception"), headers=OTHER_H), 404, "item_not_found")
