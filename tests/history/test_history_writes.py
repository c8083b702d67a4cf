"""H1: every API write form records one change per compatibility it creates, updates or deletes,
with its actor, request id and the before/after of notes and restrictions."""
import pytest

from app.services.auth import tokens as auth
from tests.bundles import SELLER
from tests.compat.compat_data import FRONT, GOL, REAR, SELLER_H, VW, compat, family, full_bundle, position, product, url
from tests.helpers import bearer
from tests.history.helpers import records, stored


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle())


def test_post_products_records_one_create_per_compatibility_with_actor_and_request_id(client, run_db):
    body = {"products": [product("MLA90001", note="Con ABS", restrictions=position([FRONT])),
                         product("MLA90002")]}
    response = client.post(url(), json=body, headers={**SELLER_H, "X-Request-Id": "req-post-1"})
    assert response.status_code == 200
    created = records(client)
    assert [(r["action"], r["product_id"]) for r in created] == [("CREATE", "MLA90001"), ("CREATE", "MLA90002")]
    first = created[0]
    assert first["actor"] == {"user_id": SELLER, "kind": "API"}
    assert first["request_id"] == "req-post-1"
    assert first["source"] == "SELLER" and first["creation_source"] == "DEFAULT"
    assert first["changes"]["note"] == {"from": None, "to": "Con ABS"}
    assert first["changes"]["restrictions"] == {"from": None, "to": position([FRONT])}
    assert "changes" not in created[1]  # nothing but the vehicle: no note, no restrictions
    rows, _ = stored(run_db)
    assert {r["compatibility_id"] for r in created} == {row[0] for row in rows}


def test_actor_names_the_application_a_token_was_issued_to(client, run_db):
    token = run_db(auth.create_access_token, SELLER, None, "5501")
    assert client.post(url(), json={"products": [product("MLA90001")]}, headers=bearer(token)).status_code == 200
    assert records(client)[0]["actor"] == {"user_id": SELLER, "client_id": "5501", "kind": "API"}


def test_family_records_one_create_per_product_it_selects(client):
    body = {"products_families": [family(BRAND={"value_name": "Volkswagen"})]}
    assert client.post(url(), json=body, headers=SELLER_H).get_json()["created_compatibilities_count"] == len(VW)
    assert sorted(r["product_id"] for r in records(client)) == VW


def test_readding_a_product_records_nothing(client):
    client.post(url(), json={"products": [product("MLA90001")]}, headers=SELLER_H)
    client.post(url(), json={"products": [product("MLA90001")], "products_group": [
        {"ids": ["MLA90001"], "creation_source": "DEFAULT"}]}, headers=SELLER_H)
    assert len(records(client)) == 1


def test_universal_is_recorded_without_a_product(client):
    assert client.post(url("MLA102"), json={"universal": True}, headers=SELLER_H).status_code == 200
    (record,) = records(client, "MLA102")
    assert record["action"] == "CREATE" and record["universal"] is True and "product_id" not in record
    compatibility_id = record["compatibility_id"]
    assert client.delete(url("MLA102", f"/{compatibility_id}"), headers=SELLER_H).status_code == 200
    deleted = records(client, "MLA102")[-1]
    assert (deleted["action"], deleted["compatibility_id"], deleted["universal"]) == ("DELETE", compatibility_id, True)


def test_copy_records_creates_on_the_target_only(client, load_bundle):
    load_bundle({"compatibilities": [compat("MLA101", pid, note="Copiada", note_status="APPROVED") for pid in GOL[:3]]})
    body = {"item_to_copy": {"item_id": "MLA101", "extended_information": True}}
    assert client.post(url(), json=body, headers=SELLER_H).status_code == 200
    copied = records(client)
    assert [r["action"] for r in copied] == ["CREATE"] * 3
    assert {r["changes"]["note"]["to"] for r in copied} == {"Copiada"}
    assert all(r["actor"]["kind"] == "API" for r in copied)
    assert all(r["actor"]["kind"] == "IMPORT" for r in records(client, "MLA101"))  # the source only got its import


def test_put_records_deletes_creates_and_real_updates_in_order(client):
    client.post(url(), json={"products": [product(pid, note="Vieja") for pid in GOL[:3]]}, headers=SELLER_H)
    body = {"delete": {"products": [{"id": GOL[0]}]},
            "create": {"products": [product(GOL[3], note="Nueva")]},
            "update": {"products": [{"id": GOL[1], "note": "Cambiada", "restrictions": position([REAR])},
                                    {"id": GOL[2], "note": "Vieja"}]}}  # GOL[2]: same note, no change
    response = client.put(url(), json=body, headers={**SELLER_H, "X-Request-Id": "req-put"})
    assert response.status_code == 200, response.get_json()
    put = [r for r in records(client) if r.get("request_id") == "req-put"]
    assert [(r["action"], r["product_id"]) for r in put] == [
        ("DELETE", GOL[0]), ("CREATE", GOL[3]), ("UPDATE", GOL[1])]
    assert put[0]["changes"]["note"] == {"from": "Vieja", "to": None}
    assert put[2]["changes"] == {"note": {"from": "Vieja", "to": "Cambiada"},
                                 "restrictions": {"from": None, "to": position([REAR])}}


def test_update_that_removes_a_note_and_restrictions_records_their_last_values(client):
    client.post(url(), json={"products": [product("MLA90001", note="N", restrictions=position([FRONT]))]},
                headers=SELLER_H)
    client.put(url(), json={"update": {"products": [{"id": "MLA90001", "note": "", "restrictions": []}]}},
               headers=SELLER_H)
    update = records(client)[-1]
    assert update["action"] == "UPDATE"
    assert update["changes"] == {"note": {"from": "N", "to": None}, "note_status": {"from": "PENDING", "to": None},
                                 "restrictions": {"from": position([FRONT]), "to": None}}


def test_delete_all_and_by_family_record_each_deleted_compatibility(client):
    client.post(url(), json={"products": [product(pid) for pid in VW]}, headers=SELLER_H)
    families = {"products_families": [{"domain_id": "MLA-CARS_AND_VANS",
                                       "attributes": [{"id": "MODEL", "value_name": "Gol"}]}]}
    gone = client.delete(url(), json=families, headers=SELLER_H).get_json()["deleted_compatibilities"]
    deletes = [r for r in records(client) if r["action"] == "DELETE"]
    assert sorted(r["compatibility_id"] for r in deletes) == sorted(gone)
    rest = client.delete(url(), headers=SELLER_H).get_json()["deleted_compatibilities"]
    deletes = [r for r in records(client) if r["action"] == "DELETE"]
    assert len(deletes) == len(VW) and {r["compatibility_id"] for r in deletes} == set(gone) | set(rest)


def test_a_refused_write_records_nothing(client, run_db):
    client.post(url(), json={"products": [product("MLA90001")]}, headers=SELLER_H)
    before = stored(run_db)
    # The second element is of another site: the whole request is refused after the first was planned.
    response = client.post(url(), json={"products": [product("MLA90002"), product("MLB90001")]}, headers=SELLER_H)
    assert response.status_code in (400, 404)
    assert stored(run_db) == before


def test_exception_report_changes_no_compatibility_and_records_nothing(client):
    response = client.post(url(), json={}, headers=SELLER_H)  # nothing to add
    assert response.status_code == 400
    assert client.post(url("MLA100", "/exception"), json={"comment": "Falta el modelo 2026"},
                       headers=SELLER_H).status_code == 200
    assert records(client) == []


def test_history_enabled_false_skips_the_records_but_not_the_etag(app, client):
    """The benchmark's switch (README): writes keep their ETags, and the count stays exact."""
    from tests.history.helpers import etag

    tag = etag(client)
    app.config["HISTORY_ENABLED"] = False
    assert client.post(url(), json={"products": [product("MLA90001")]}, headers=SELLER_H).status_code == 200
    assert records(client) == [] and etag(client) != tag
    app.config["HISTORY_ENABLED"] = True
    client.delete(url(), headers=SELLER_H)
    assert [r["action"] for r in records(client)] == ["DELETE"]
