"""Content coding as RFC 9110 (12.5.3) negotiates it: gzip only when Accept-Encoding allows it
(its own entry ruling over `*`, q=0 meaning "not acceptable"), and Vary: Accept-Encoding always."""
import gzip
import json

import pytest

from app.http import compression
from tests.compat.compat_data import GOL, SELLER_H, compat, full_bundle, url

DUMP = "/catalog/dumps/domains/MLA/compatibilities"


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(compatibilities=[compat("MLA100", pid) for pid in GOL[:3]]))


@pytest.mark.parametrize("accept", [
    "gzip", "gzip;q=0.5", "GZIP", "*", "gzip;q=0.5, identity;q=0.4", "identity, gzip;q=1", "deflate, gzip;q=0.001",
    "*;q=0, gzip", "br, *;q=0.1"])
def test_gzip_is_sent_when_the_client_accepts_it(client, accept):
    plain = client.get(DUMP)
    response = client.get(DUMP, headers={"Accept-Encoding": accept})
    assert response.headers["Content-Encoding"] == "gzip", accept
    assert json.loads(gzip.decompress(response.data)) == plain.get_json()
    assert "Accept-Encoding" in response.headers["Vary"]


@pytest.mark.parametrize("accept", [
    "gzip;q=0", "gzip; q=0.0", "GZIP;Q=0", "deflate, gzip;q=0", "gzip;q=0, *", "*;q=0", "identity", "br", "", None])
def test_identity_is_sent_when_the_client_refuses_gzip_or_does_not_name_it(client, accept):
    response = client.get(DUMP, headers={} if accept is None else {"Accept-Encoding": accept})
    assert response.status_code == 200 and "Content-Encoding" not in response.headers, accept
    assert len(response.data) > 500 and response.get_json()
    assert "Accept-Encoding" in response.headers["Vary"]


def test_a_list_refused_gzip_keeps_its_plain_etag_and_conditional_answers(client):
    plain = client.get(url(), headers=SELLER_H)
    refused = client.get(url(), headers={**SELLER_H, "Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers and refused.headers["ETag"] == plain.headers["ETag"]
    assert refused.get_json() == plain.get_json() and len(refused.get_json()["products"]) == 3
    again = client.get(url(), headers={**SELLER_H, "Accept-Encoding": "gzip;q=0",
                                       "If-None-Match": refused.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == plain.headers["ETag"]



@pytest.mark.parametrize("vary, expected", [(None, "Accept-Encoding"), ("Origin", "Origin, Accept-Encoding"),
                                            ("Origin, accept-encoding", "Origin, accept-encoding")])
@pytest.mark.parametrize("accept", [None, "gzip;q=0"])
def test_an_uncompressed_answer_varies_on_accept_encoding_once_beside_what_others_named(app, vary, expected, accept):
    with app.test_request_context(DUMP, headers={} if accept is None else {"Accept-Encoding": accept}):
        response = app.response_class("{}", mimetype="application/json", headers={} if vary is None else {"Vary": vary})
        assert compression.after_request(response).headers.get_all("Vary") == [expected]
