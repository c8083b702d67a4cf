"""J1 to J5 as a client sees them: the three body forms, the whole body's shape checked before any job
exists, idempotency keys, the limits, and another seller's job."""
import json

from tests.bulk.conftest import AUTH, job, products_of, results, upload
from tests.bundles import OTHER_SELLER, SELLER, TOKENS
from tests.helpers import assert_error, bearer, loaded_app

ADD_ONE = [{"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}]}]


def job_count(client):
    return client.get("/compatibilities/bulk", headers=AUTH).get_json()["paging"]["total"]


def test_a_json_body_makes_a_queued_job_with_its_location(client):
    response = upload(client, ADD_ONE)
    body = response.get_json()
    assert response.status_code == 202, body
    assert response.headers["Location"] == f"/compatibilities/bulk/{body['id']}"
    assert body["status"] == "QUEUED" and body["date_created"].endswith("Z")
    assert body["rows"] == {"total": 1, "done": 0, "ok": 0, "error": 0}
    assert body["compatibilities"] == {"created": 0, "updated": 0, "deleted": 0}
    assert "date_started" not in body and "date_finished" not in body
    assert job(client, body["id"]) == body


def test_json_lines_number_rows_by_their_line(client, work):
    text = ('{"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001"}]}\n\n'
            '{"item_id": "MLA101", "action": "ADD", "products": [{"id": "MLA90002"}]}\n')
    response = upload(client, text=text, content_type="application/x-ndjson")
    assert response.status_code == 202, response.get_json()
    work()
    assert [(r["row"], r["item_id"], r["status"]) for r in results(client, response.get_json()["id"])] == [
        (1, "MLA100", "OK"), (3, "MLA101", "OK")]


def test_csv_lines_of_one_item_make_one_row_numbered_by_its_first_line(client, work):
    text = ("item_id,action,product_id,note,position\n"
            "MLA100,ADD,MLA90001,Solo con ABS,Delantera\n"
            "MLA101,add,MLA90003,,\n"
            "MLA100,ADD,MLA90002,,13701105\n")
    response = upload(client, text=text, content_type="text/csv")
    assert response.status_code == 202, response.get_json()
    assert response.get_json()["rows"]["total"] == 2
    work()
    assert [(r["row"], r["item_id"], r["created"]) for r in results(client, response.get_json()["id"])] == [
        (2, "MLA100", 2), (3, "MLA101", 1)]
    by_product = products_of(client, "MLA100")
    assert by_product["MLA90001"]["note"] == "Solo con ABS"
    positions = {pid: p["restrictions"][0]["attribute_values"][0]["values"][0]["value_id"]
                 for pid, p in by_product.items()}
    assert positions == {"MLA90001": "13701104", "MLA90002": "13701105"}


def test_csv_families_name_vehicles_by_value_names_or_ids_in_the_items_vehicle_domain(client, work):
    text = ("item_id,action,BRAND,MODEL,VEHICLE_YEAR\n"
            "MLA100,ADD,volkswagen,Gol,\n"
            "MLA101,ADD,60297,62200,2010\n")
    response = upload(client, text=text, content_type="text/csv")
    assert response.status_code == 202, response.get_json()
    work()
    assert [r["created"] for r in results(client, response.get_json()["id"])] == [6, 2]


BAD_BODIES = [
    ("not json", "application/json", "invalid_json", "json"),
    ('{"rows": [{"item_id": "MLA100", "action": "ADD"', "application/json", "invalid_json", "json"),
    ('{"rows": []}', "application/json", "validation_error", "rows"),
    ('{"rows": [{"item_id": "MLA100", "action": "MOVE"}]}', "application/json", "validation_error", "rows.0.action"),
    ('{"item_id": "MLA100", "action": "ADD"}\n{"item_id": 5}\n', "application/x-ndjson", "validation_error",
     "line 2.item_id"),
    ('{"item_id": "MLA100", "action": "ADD"}\n{oops\n', "application/x-ndjson", "invalid_json", "line 2"),
    ("item_id,action,product_id,COLOUR\nMLA100,ADD,MLA90001,red\n", "text/csv", "invalid_csv", "line 1"),
    ("item_id,action,product_id\nMLA100,ADD,MLA90001\nMLA100,DELETE,MLA90002\n", "text/csv", "validation_error",
     "line 3.action"),
    ("item_id,action,product_id\nMLA100,ADD\n", "text/csv", "invalid_csv", "line 2"),
    ("item_id,action,product_id\n", "text/csv", "validation_error", "rows"),
]


def test_a_body_that_cannot_be_read_whole_is_a_400_naming_where_and_makes_no_job(client):
    # One test for all of them: each app costs a database load, and these answer before any write.
    for text, content_type, error, field in BAD_BODIES:
        body = assert_error(upload(client, text=text, content_type=content_type), 400, error)
        assert body["cause"][0]["field"] == field, (text, body)
    assert job_count(client) == 0


def test_a_row_holding_a_nul_character_is_refused(client):
    body = assert_error(upload(client, [{"item_id": "MLA100", "action": "ADD", "note": "a\u0000b",
                                         "products": [{"id": "MLA90001"}]}]), 400, "invalid_characters")
    assert "row 1" in body["message"]


def test_more_rows_than_bulk_max_rows_is_a_400_naming_the_first_line_past_it(request, database_url):
    app = loaded_app(request, database_url, BULK_MAX_ROWS=2)
    client = app.test_client()
    rows = [{"item_id": f"MLA10{i}", "action": "ADD", "products": [{"id": "MLA90001"}]} for i in range(3)]
    csv = "item_id,action,product_id\n" + "".join(f"MLA10{i},ADD,MLA90001\n" for i in range(3))
    for response, where in ((upload(client, rows), "row 3"),
                            (upload(client, text="\n".join(map(json.dumps, rows)), content_type="application/x-ndjson"),
                             "line 3"),
                            (upload(client, text=csv, content_type="text/csv"), "line 4")):
        body = assert_error(response, 400, "too_many_rows")
        assert body["message"].startswith(where), body
    assert upload(client, rows[:2]).status_code == 202
    app.extensions["bulk_queue"].close()


def test_a_body_above_bulk_max_bytes_is_a_413_and_only_j1_reads_above_max_content_length(request, database_url):
    app = loaded_app(request, database_url, BULK_MAX_BYTES=4096, MAX_CONTENT_LENGTH=1024)
    client = app.test_client()
    rows = [{"item_id": "MLA100", "action": "ADD", "products": [{"id": f"MLA9{n:04d}", "note": "Solo con ABS"}
                                                                 for n in range(1, 37)]}]
    assert len(str(rows)) > 1024
    assert upload(client, rows).status_code == 202
    assert_error(upload(client, rows * 20), 413, "request_entity_too_large")
    assert_error(client.post("/items/MLA100/compatibilities", json=rows[0], headers=AUTH), 413)
    app.extensions["bulk_queue"].close()


def test_the_same_idempotency_key_and_body_answer_the_same_job_and_another_body_a_409(client):
    key = {"Idempotency-Key": "import-2026-03-02"}
    first = upload(client, ADD_ONE, headers=key)
    again = upload(client, ADD_ONE, headers=key)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.get_json() == first.get_json() and again.headers["Location"] == first.headers["Location"]
    other = [{**ADD_ONE[0], "item_id": "MLA101"}]
    assert_error(upload(client, other, headers=key), 409, "idempotency_conflict")
    assert job_count(client) == 1
    # Keys are the seller's own: another seller's same key is another job.
    assert upload(client, [{**ADD_ONE[0], "item_id": "MLA200"}], headers=key,
                  token=TOKENS[OTHER_SELLER]).status_code == 202


def test_past_bulk_max_jobs_in_flight_a_seller_gets_429_until_one_finishes(request, database_url):
    app = loaded_app(request, database_url, BULK_MAX_JOBS_IN_FLIGHT=2)
    client = app.test_client()
    assert [upload(client, ADD_ONE).status_code for _ in range(2)] == [202, 202]
    assert_error(upload(client, ADD_ONE), 429, "too_many_jobs")
    assert upload(client, [{**ADD_ONE[0], "item_id": "MLA200"}], token=TOKENS[OTHER_SELLER]).status_code == 202
    with app.app_context():
        app.extensions["bulk_queue"].run_pending()
    assert upload(client, ADD_ONE).status_code == 202
    app.extensions["bulk_queue"].close()


def test_a_job_is_one_request_against_the_write_rate_limit(request, database_url):
    app = loaded_app(request, database_url, RATELIMIT_COMPAT_WRITES="2 per minute")
    client = app.test_client()
    big = [{"item_id": "MLA100", "action": "ADD", "products": [{"id": f"MLA9{n:04d}"}]} for n in range(1, 30)]
    assert upload(client, big).status_code == 202
    assert client.post("/items/MLA101/compatibilities", json={"products": [{"id": "MLA90001"}],
                       "creation_source": "DEFAULT"}, headers=AUTH).status_code == 200
    assert_error(upload(client, ADD_ONE), 429, "local_rate_limited")
    app.extensions["bulk_queue"].close()


def test_another_sellers_job_is_forbidden_and_an_unknown_one_not_found(client):
    job_id = upload(client, ADD_ONE).get_json()["id"]
    other = bearer(TOKENS[OTHER_SELLER])
    for method, path in (("get", ""), ("get", "/results"), ("delete", "")):
        assert_error(getattr(client, method)(f"/compatibilities/bulk/{job_id}{path}", headers=other), 403, "forbidden")
        assert_error(getattr(client, method)(f"/compatibilities/bulk/nope{path}", headers=AUTH), 404,
                     "bulk_job_not_found")
    assert client.get("/compatibilities/bulk", headers=other).get_json()["paging"]["total"] == 0
    assert_error(client.get(f"/compatibilities/bulk/{job_id}"), 401, "invalid_token")


def test_the_job_list_is_the_callers_newest_first_filtered_by_status(client, work):
    first = upload(client, ADD_ONE).get_json()["id"]
    work()
    second = upload(client, [{**ADD_ONE[0], "item_id": "MLA101"}]).get_json()["id"]
    listed = client.get("/compatibilities/bulk", headers=AUTH).get_json()
    assert [j["id"] for j in listed["results"]] == [second, first]
    assert listed["paging"] == {"total": 2, "offset": 0, "limit": 50}
    done = client.get("/compatibilities/bulk?status=DONE", headers=AUTH).get_json()["results"]
    assert [(j["id"], j["status"]) for j in done] == [(first, "DONE")]
    assert SELLER  # the base bundle's seller owns both


def test_cancel_a_queued_job_cancels_its_rows_and_a_finished_job_is_a_409(client, work):
    job_id = upload(client, ADD_ONE + [{**ADD_ONE[0], "item_id": "MLA101"}]).get_json()["id"]
    cancelled = client.delete(f"/compatibilities/bulk/{job_id}", headers=AUTH)
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "CANCELLED"
    assert "date_finished" in cancelled.get_json()
    work()
    assert [r["status"] for r in results(client, job_id)] == ["CANCELLED", "CANCELLED"]
    assert job(client, job_id)["rows"]["done"] == 0
    assert client.get("/items/MLA100/compatibilities", headers=AUTH).get_json()["products"] == []
    assert_error(client.delete(f"/compatibilities/bulk/{job_id}", headers=AUTH), 409, "bulk_job_finished")
