"""H2 and H3: the list's strong ETag, 304 on If-None-Match, If-Match on every compatibility write
(412 `precondition_failed`, nothing written), and the new ETag in every successful write's answer."""
import pytest

from tests.compat.compat_data import GOL, OTHER_H, SELLER_H, claimed_order, compat, full_bundle, product, url
from tests.helpers import assert_error
from tests.history.helpers import etag, stored

STALE = '"0000000000000000000000000000000000000000"'


@pytest.fixture(autouse=True)
def loaded(load_bundle, client):
    load_bundle(full_bundle(compatibilities=[compat("MLA101", pid) for pid in GOL[:2]]))
    assert client.post(url(), json={"products": [product(GOL[0], note="N")]}, headers=SELLER_H).status_code == 200


def test_list_etag_is_strong_and_the_same_for_every_representation_the_seller_reads(client):
    response = client.get(url(), headers=SELLER_H)
    tag = response.headers["ETag"]
    assert tag.startswith('"') and not tag.startswith("W/")
    assert client.get(url(), query_string={"extended": "true", "limit": 1}, headers=SELLER_H).headers["ETag"] == tag
    # Others see another representation (no note_status, no pending note): another tag.
    assert client.get(url(), headers=OTHER_H).headers["ETag"] != tag


def test_if_none_match_with_the_current_tag_answers_304_without_a_body(client):
    tag = etag(client)
    response = client.get(url(), headers={**SELLER_H, "If-None-Match": tag})
    assert response.status_code == 304 and response.get_data() == b""
    assert response.headers["ETag"] == tag
    assert client.get(url(), headers={**SELLER_H, "If-None-Match": STALE}).status_code == 200


def test_every_successful_write_answers_the_etag_the_list_then_shows(client):
    writes = [
        ("POST", url(), {"products": [product(GOL[1])]}),
        ("PUT", url(), {"update": {"products": [{"id": GOL[1], "note": "Otra"}]}}),
        ("DELETE", url(), {"products_families": [{"domain_id": "MLA-CARS_AND_VANS",
                                                  "attributes": [{"id": "MODEL", "value_name": "Gol"}]}]}),
        ("POST", url(), {"item_to_copy": {"item_id": "MLA101", "extended_information": False}}),
        ("DELETE", url(), None),
        ("POST", url("MLA100", "/exception"), {"comment": "Falta el modelo"}),
    ]
    seen = {etag(client)}
    for method, path, body in writes:
        response = client.open(path, method=method, json=body, headers=SELLER_H)
        assert response.status_code == 200, (method, path, response.get_json())
        assert response.headers["ETag"] == etag(client), (method, path)
        seen.add(response.headers["ETag"])
    assert len(seen) == len(writes)  # every write but the exception changed the compatibilities
    one = client.post(url(), json={"products": [product(GOL[2])]}, headers=SELLER_H)
    compatibility_id = client.get(url(), headers=SELLER_H).get_json()["products"][0]["id"]
    deleted = client.delete(url("MLA100", f"/{compatibility_id}"),
                            headers={**SELLER_H, "If-Match": one.headers["ETag"]})
    assert deleted.status_code == 200 and deleted.headers["ETag"] == etag(client) != one.headers["ETag"]


def test_a_write_that_changes_nothing_keeps_the_etag(client):
    tag = etag(client)
    response = client.post(url(), json={"products": [product(GOL[0])]}, headers={**SELLER_H, "If-Match": tag})
    assert response.get_json()["created_compatibilities_count"] == 0
    assert response.headers["ETag"] == tag == etag(client)


@pytest.mark.parametrize("method, suffix, body", [
    ("POST", "", {"products": [product(GOL[3])]}),                                           # 8
    ("POST", "", {"item_to_copy": {"item_id": "MLA101", "extended_information": True}}),     # 9
    ("PUT", "", {"create": {"products": [product(GOL[3])]}}),                                # 10
    ("DELETE", "/{id}", None),                                                               # 16
    ("DELETE", "", None),                                                                    # 17
    ("DELETE", "", {"products_families": [{"domain_id": "MLA-CARS_AND_VANS",                # 18
                                           "attributes": [{"id": "MODEL", "value_name": "Gol"}]}]}),
    ("POST", "/exception", {"comment": "Falta el modelo"}),                                  # 19
])
def test_a_stale_if_match_is_refused_with_412_and_nothing_is_written(client, run_db, method, suffix, body):
    current = etag(client)
    client.put(url(), json={"update": {"products": [{"id": GOL[0], "note": "Cambio"}]}}, headers=SELLER_H)
    if suffix == "/exception":  # an exception needs an item without compatibilities
        client.delete(url(), headers=SELLER_H)
    if body and "item_to_copy" in body:
        client.delete(url(), headers=SELLER_H)
    before = stored(run_db)
    compatibility_id = before[0][0][0] if before[0] else "00000000-0000-4000-8000-000000000000"
    path = url("MLA100", suffix.replace("{id}", compatibility_id))
    refused = client.open(path, method=method, json=body, headers={**SELLER_H, "If-Match": current})
    body_412 = assert_error(refused, 412, "precondition_failed")
    assert "ETag" in body_412["message"] and "ETag" not in refused.headers
    assert stored(run_db) == before
    accepted = client.open(path, method=method, json=body, headers={**SELLER_H, "If-Match": etag(client)})
    assert accepted.status_code == 200, accepted.get_json()


def test_if_match_star_and_lists_of_tags_follow_http(client):
    assert client.post(url(), json={"products": [product(GOL[1])]},
                       headers={**SELLER_H, "If-Match": "*"}).status_code == 200
    both = f"{STALE}, {etag(client)}"
    assert client.post(url(), json={"products": [product(GOL[2])]},
                       headers={**SELLER_H, "If-Match": both}).status_code == 200
    weak = "W/" + etag(client)  # If-Match compares strongly (RFC 9110, 13.1.1)
    assert_error(client.post(url(), json={"products": [product(GOL[3])]}, headers={**SELLER_H, "If-Match": weak}),
                 412, "precondition_failed")


def test_authorization_and_validation_come_before_the_precondition(client):
    assert_error(client.post(url(), json={"products": [product(GOL[1])]}, headers={**OTHER_H, "If-Match": STALE}),
                 403, "forbidden")
    assert_error(client.post(url(), json={"products": [{"id": GOL[1]}]}, headers={**SELLER_H, "If-Match": STALE}),
                 400, "validation_error")


def test_imports_of_compatibilities_and_claims_change_the_etag(client, load_bundle):
    tag = etag(client)
    load_bundle({"compatibilities": [compat("MLA100", GOL[4])]})
    assert etag(client) != tag
    tag = etag(client)
    load_bundle({"orders": [claimed_order(7001, "MLA100", GOL[4])], "claims": [{"id": 8001, "order_id": 7001}]})
    assert etag(client) != tag  # the list now shows a reputation


def test_openapi_documents_the_etag_304_412_and_optional_if_match(client):
    document = client.get("/openapi.json").get_json()
    operations = document["paths"]["/items/{item_id}/compatibilities"]
    assert "304" in operations["get"]["responses"]
    assert "ETag" in operations["get"]["responses"]["200"]["headers"]
    for method in ("post", "put", "delete"):
        assert "412" in operations[method]["responses"] and "428" not in operations[method]["responses"]
        assert "ETag" in operations[method]["responses"]["200"]["headers"]
    if_match = document["components"]["parameters"]["IF_MATCH"]
    assert if_match["in"] == "header" and if_match["required"] is False
    single = document["paths"]["/items/{item_id}/compatibilities/{compatibility_id}"]["delete"]["responses"]
    assert "412" in single


GZIP = {**SELLER_H, "Accept-Encoding": "gzip"}


def gzip_list(client):
    """The seller's list of MLA100 grown to three entries, read as gzip clients read it."""
    for pid in GOL[1:3]:
        assert client.post(url(), json={"products": [product(pid)]}, headers=SELLER_H).status_code == 200
    response = client.get(url(), headers=GZIP)
    assert response.status_code == 200 and response.headers["Content-Encoding"] == "gzip"
    return response.headers["ETag"]


def test_the_etag_of_a_gzip_answer_is_if_match_of_a_gzip_client(client):
    coded = gzip_list(client)
    # Flask-Compress marks its coding in the tag, so the gzip and identity answers keep distinct
    # strong tags (RFC 9110, 8.8.3.3), and the list still varies on Accept-Encoding for caches.
    assert coded == etag(client)[:-1] + ':gzip"'
    assert "Accept-Encoding" in client.get(url(), headers=GZIP).headers["Vary"]
    written = client.post(url(), json={"products": [product(GOL[3])]}, headers={**GZIP, "If-Match": coded})
    assert written.status_code == 200, written.get_json()
    assert written.headers["ETag"] == etag(client) != coded
    # The stale coded tag is refused, and the new one works in either coding.
    assert_error(client.put(url(), json={"update": {"products": [{"id": GOL[3], "note": "Otra"}]}},
                            headers={**GZIP, "If-Match": coded}), 412, "precondition_failed")
    fresh = client.get(url(), headers=GZIP).headers["ETag"]
    assert fresh.endswith(':gzip"') and fresh != coded
    assert client.put(url(), json={"update": {"products": [{"id": GOL[3], "note": "Otra"}]}},
                      headers={**SELLER_H, "If-Match": fresh}).status_code == 200


def test_a_weak_or_unknown_coding_tag_never_matches_if_match(client):
    coded = gzip_list(client)
    for tag in ("W/" + coded, coded[:-5] + 'br"', coded[:-1] + ':gzip:gzip"', '""', '"", W/""'):
        assert_error(client.post(url(), json={"products": [product(GOL[3])]}, headers={**GZIP, "If-Match": tag}),
                     412, "precondition_failed")
    listed = f'W/{coded}, {STALE}, {coded}'
    assert client.post(url(), json={"products": [product(GOL[3])]},
                       headers={**GZIP, "If-Match": listed}).status_code == 200


def test_if_none_match_compares_weakly_whatever_the_coding(client):
    coded = gzip_list(client)
    plain = etag(client)
    for sent, answered in [(coded, coded), ("W/" + coded, coded), (plain, plain), ("W/" + plain, plain),
                           (f"{STALE}, {coded}", coded), ("*", plain)]:
        response = client.get(url(), headers={**GZIP, "If-None-Match": sent})
        assert (response.status_code, response.get_data()) == (304, b""), sent
        assert response.headers["ETag"] == answered, sent
    for sent in (STALE, f'W/{STALE}', coded[:-5] + 'br"', '""', 'W/""', '"", W/""'):
        assert client.get(url(), headers={**GZIP, "If-None-Match": sent}).status_code == 200, sent
    assert client.get(url(), headers={**GZIP, "If-None-Match": f'"", {coded}'}).status_code == 304
