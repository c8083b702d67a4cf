"""What the workers do with a job's rows: the synchronous endpoints' rules, through the same services,
without the 200-product limit; the rows of one item together or not at all; history records of
actor BULK with the job's id; progress a person can follow."""
import os
import uuid

import pytest
import redis

from tests.bulk.conftest import AUTH, job, products_of, results, upload
from tests.helpers import loaded_app

VW = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Volkswagen"}]}
GOL = {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Volkswagen"},
                                                        {"id": "MODEL", "value_name": "Gol"}]}


def history(client, item_id):
    return client.get(f"/items/{item_id}/compatibilities/history?limit=200", headers=AUTH).get_json()["results"]


def run_job(client, work, rows):
    response = upload(client, rows)
    assert response.status_code == 202, response.get_json()
    work()
    job_id = response.get_json()["id"]
    return job(client, job_id), results(client, job_id)


def test_add_lifts_the_per_request_product_limit(request, database_url):
    app = loaded_app(request, database_url, COMPAT_MAX_PRODUCTS_PER_REQUEST=10, COMPAT_MAX_FAMILIES_PER_REQUEST=1)
    client = app.test_client()
    sync = client.post("/items/MLA100/compatibilities", json={"products_families": [VW],
                                                              "creation_source": "DEFAULT"}, headers=AUTH)
    assert sync.status_code == 400 and sync.get_json()["error"] == "too_many_products"
    other = {**VW, "attributes": [{"id": "BRAND", "value_name": "Toyota"}]}
    response = upload(client, [{"item_id": "MLA100", "action": "ADD", "products_families": [VW, other]}])
    with app.app_context():
        app.extensions["bulk_queue"].run_pending()
    done = job(client, response.get_json()["id"])
    assert done["status"] == "DONE" and done["compatibilities"]["created"] == 24
    assert len(products_of(client, "MLA100")) == 24
    assert {r["creation_source"] for r in history(client, "MLA100")} == {"DEFAULT"}
    app.extensions["bulk_queue"].close()


def test_a_job_reports_progress_and_its_counts_when_done(client, work):
    finished, rows = run_job(client, work, [
        {"item_id": "MLA100", "action": "ADD", "products_families": [GOL]},
        {"item_id": "MLA101", "action": "ADD", "products": [{"id": "MLA90001"}, {"id": "MLA90002"}],
         "note": "Solo con ABS", "creation_source": "automation"}])
    assert finished["status"] == "DONE"
    assert finished["rows"] == {"total": 2, "done": 2, "ok": 2, "error": 0}
    assert finished["compatibilities"] == {"created": 8, "updated": 0, "deleted": 0}
    assert finished["date_started"] <= finished["date_finished"]
    assert [(r["row"], r["status"], r["created"]) for r in rows] == [(1, "OK", 6), (2, "OK", 2)]
    assert {p["note"] for p in products_of(client, "MLA101").values()} == {"Solo con ABS"}
    assert {r["creation_source"] for r in history(client, "MLA101")} == {"AUTOMATION"}


def test_replace_keeps_the_ids_of_kept_products_records_nothing_for_them_and_deletes_the_rest(client, work):
    client.post("/items/MLA100/compatibilities", json={"products": [{"id": "MLA90001"}, {"id": "MLA90002"}],
                                                       "creation_source": "DEFAULT"}, headers=AUTH)
    before = products_of(client, "MLA100")
    history_before = client.get("/items/MLA100/compatibilities/history", headers=AUTH).get_json()["paging"]["total"]
    finished, rows = run_job(client, work, [
        {"item_id": "MLA100", "action": "REPLACE", "products": [{"id": "MLA90002"}, {"id": "MLA90003"}]}])
    after = products_of(client, "MLA100")
    assert set(after) == {"MLA90002", "MLA90003"}
    assert after["MLA90002"]["id"] == before["MLA90002"]["id"]
    assert (rows[0]["created"], rows[0]["updated"], rows[0]["deleted"]) == (1, 0, 1)
    history = client.get("/items/MLA100/compatibilities/history", headers=AUTH).get_json()
    assert history["paging"]["total"] == history_before + 2
    new = history["results"][:2]
    assert {(r["action"], r["product_id"]) for r in new} == {("CREATE", "MLA90003"), ("DELETE", "MLA90001")}
    assert all(r["actor"] == {"user_id": 1001, "kind": "BULK"} and r["job_id"] == finished["id"] for r in new)


def test_replace_with_a_note_updates_a_kept_product_and_an_empty_replace_clears_the_item(client, work):
    client.post("/items/MLA100/compatibilities", json={"products": [{"id": "MLA90001"}],
                                                       "creation_source": "DEFAULT"}, headers=AUTH)
    _, rows = run_job(client, work, [{"item_id": "MLA100", "action": "REPLACE",
                                      "products": [{"id": "MLA90001", "note": "Solo con ABS"}]}])
    assert (rows[0]["created"], rows[0]["updated"]) == (0, 1)
    assert products_of(client, "MLA100")["MLA90001"]["note"] == "Solo con ABS"
    _, rows = run_job(client, work, [{"item_id": "MLA100", "action": "REPLACE"}])
    assert rows[0]["deleted"] == 1 and products_of(client, "MLA100") == {}


def test_delete_removes_listed_products_and_families(client, work):
    client.post("/items/MLA100/compatibilities", json={"products_families": [GOL], "products": [{"id": "MLA90013"}],
                                                       "creation_source": "DEFAULT"}, headers=AUTH)
    _, rows = run_job(client, work, [{"item_id": "MLA100", "action": "DELETE", "products_families": [GOL]},
                                     {"item_id": "MLA100", "action": "DELETE", "products": [{"id": "MLA90013"}]}])
    assert [(r["status"], r["deleted"]) for r in rows] == [("OK", 6), ("OK", 1)]
    assert products_of(client, "MLA100") == {}


def test_the_rows_of_an_item_apply_together_or_not_at_all_and_items_are_independent(client, work):
    finished, rows = run_job(client, work, [
        {"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}]},
        {"item_id": "MLA101", "action": "ADD", "products": [{"id": "MLA90002"}]},
        {"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA99999"}]}])
    assert [(r["row"], r["status"]) for r in rows] == [(1, "ERROR"), (2, "OK"), (3, "ERROR")]
    assert rows[0]["error"]["error"] == "item_not_applied" and rows[0]["error"]["status"] == 424
    assert rows[2]["error"]["error"] == "product_not_found"
    assert products_of(client, "MLA100") == {} and set(products_of(client, "MLA101")) == {"MLA90002"}
    assert finished["rows"] == {"total": 3, "done": 3, "ok": 1, "error": 2}
    assert finished["compatibilities"]["created"] == 1
    failed = client.get(f"/compatibilities/bulk/{finished['id']}/results?status=ERROR", headers=AUTH).get_json()
    assert [r["row"] for r in failed["results"]] == [1, 3] and failed["paging"]["total"] == 2


def sync_error(client, method, item_id, body):
    response = getattr(client, method)(f"/items/{item_id}/compatibilities", json=body, headers=AUTH)
    assert response.status_code >= 400
    return response.get_json()


def test_a_rows_error_is_the_object_the_synchronous_endpoint_answers(client, work):
    bad_product = {"products": [{"id": "MLA99999", "creation_source": "DEFAULT"}]}
    note_disabled = {"products": [{"id": "MLA90001", "note": "x", "creation_source": "DEFAULT"}]}
    expected = [sync_error(client, "post", "MLA100", bad_product), sync_error(client, "post", "MLA103", note_disabled),
                sync_error(client, "put", "MLA101", {"delete": {"products": [{"id": "MLA90005"}]}}),
                sync_error(client, "post", "MLA200", bad_product), sync_error(client, "post", "MLA999", bad_product)]
    _, rows = run_job(client, work, [
        {"item_id": "MLA100", "action": "ADD", **bad_product},
        {"item_id": "MLA103", "action": "ADD", **note_disabled},
        {"item_id": "MLA101", "action": "DELETE", "products": [{"id": "MLA90005"}]},
        {"item_id": "MLA200", "action": "ADD", **bad_product},
        {"item_id": "MLA999", "action": "ADD", **bad_product}])
    assert [r["error"] for r in rows] == expected
    assert [e["error"] for e in expected] == ["product_not_found", "notes_disabled", "compatibility_not_found",
                                              "forbidden", "item_not_found"]


def test_add_then_delete_of_one_item_in_one_job_runs_in_row_order(client, work):
    _, rows = run_job(client, work, [
        {"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}, {"id": "MLA90002"}]},
        {"item_id": "MLA100", "action": "DELETE", "products": [{"id": "MLA90001"}]}])
    assert [(r["created"], r["deleted"]) for r in rows] == [(2, 0), (0, 1)]
    assert set(products_of(client, "MLA100")) == {"MLA90002"}


def test_universal_follows_rule_a3(client, work):
    _, rows = run_job(client, work, [{"item_id": "MLA102", "action": "ADD", "universal": True},
                                     {"item_id": "MLA100", "action": "ADD", "universal": True}])
    assert rows[0]["status"] == "OK" and rows[0]["created"] == 1
    assert rows[1]["error"]["error"] == "universal_not_allowed"


def test_a_redis_queue_carries_the_jobs_too(request, database_url):
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as exc:
        client.close()
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis required but unreachable at {url}: {exc}")
        pytest.skip(f"Redis unreachable at {url}: {exc}")
    name = f"test-bulk-{uuid.uuid4().hex[:12]}"
    app = loaded_app(request, database_url, QUEUE_URL=url, QUEUE_NAME=name)
    try:
        response = upload(app.test_client(), [{"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}]}])
        with app.app_context():
            assert app.extensions["bulk_queue"].run_pending() == 1
        assert job(app.test_client(), response.get_json()["id"])["status"] == "DONE"
    finally:
        app.extensions["bulk_queue"].close()
        client.delete(*client.keys(f"*{name}*") or ["-"])
        client.close()
