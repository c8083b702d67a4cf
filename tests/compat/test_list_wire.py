"""Endpoint 12 answers its service's body without marshmallow: that body must be, byte for byte,
what CompatibilityListSchema would dump (keys, their order, types), in every variant of the list."""
import json

import pytest

from app.services.auth import require_item
from app.services.compat.reads import list_compatibilities
from schemas.compat import CompatibilityListSchema
from tests.bundles import OTHER_SELLER, SELLER
from tests.compat.compat_data import FRONT, OTHER_H, REAR, SELLER_H, claimed_order, compat, full_bundle, position, url

IDS = {n: f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 6)}
CALLERS = [(SELLER, SELLER_H), (OTHER_SELLER, OTHER_H)]
PAGES = [{}, {"limit": 2}, {"offset": 1}, {"limit": 2, "offset": 1}, {"offset": 10}]


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(
        compatibilities=[
            compat("MLA100", "MLA90001", id=IDS[1], note="Aprobada", note_status="APPROVED",
                   restrictions=position([FRONT], [FRONT, REAR])),
            compat("MLA100", "MLA90002", id=IDS[2], note="Pendiente", note_status="PENDING"),
            compat("MLA100", "MLA90003", id=IDS[3], source="CATALOGO", note="Revisada", note_status="CHECKED"),
            compat("MLA100", "MLA90004", id=IDS[4], source="CATALOGO"),
            compat("MLA102", id=IDS[5])],
        orders=[claimed_order(7001, "MLA100", "MLA90001"), claimed_order(7002, "MLA100", "MLA90002")],
        claims=[{"id": 5000001, "order_id": 7001}, {"id": 5000002, "order_id": 7002}]))


def schema_answer(app, body):
    """The bytes the view sent when it dumped the service's body with the schema."""
    with app.app_context():
        return app.json.response(CompatibilityListSchema().dump(body)).get_data()


@pytest.mark.parametrize("item_id", ["MLA100", "MLA102"])
@pytest.mark.parametrize("extended", [True, False])
@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("caller", CALLERS, ids=["seller", "other"])
def test_list_answer_is_the_schema_dump_byte_for_byte(app, client, run_db, item_id, extended, page, caller):
    caller_id, headers = caller
    red_claims = app.config["REPUTATION_RED_CLAIMS"]
    body = run_db(lambda: list_compatibilities(require_item(item_id), caller_id, extended, page.get("limit"),
                                               page.get("offset"), red_claims))
    response = client.get(url(item_id), headers=headers,
                          query_string={"extended": str(extended).lower(), **page})
    assert response.status_code == 200, response.get_json()
    assert response.get_data() == schema_answer(app, body)
    # The view sent exactly the service's body, and the schema changes nothing in it.
    assert json.loads(response.get_data()) == body


def test_list_answer_keeps_the_documented_shape(client):
    answer = client.get(url("MLA100"), headers=OTHER_H, query_string={"extended": "true", "limit": 1}).get_json()
    assert list(answer) == ["products", "catalog_compatibilities_count", "paging"]
    assert list(answer["products"][0]) == ["id", "domain_id", "catalog_product_id", "catalog_product_name",
                                           "source", "note", "restrictions", "reputation"]
    assert answer["paging"] == {"total": 4, "offset": 0, "limit": 1}
    restriction = answer["products"][0]["restrictions"][0]
    assert list(restriction) == ["attribute_id", "attribute_values"]
    assert [len(group["values"]) for group in restriction["attribute_values"]] == [1, 2]
    universal = client.get(url("MLA102"), headers=SELLER_H).get_json()
    assert universal == {"products": [], "catalog_compatibilities_count": 0,
                         "universal": {"id": IDS[5], "domain_ids": ["MLA-CARS_AND_VANS"]}}
