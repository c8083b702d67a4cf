"""Which requests carry a body, told from the headers alone (app/http/bodies.has_body): the hooks
that check bodies skip the others without reading the input."""
import pytest

from app.http.bodies import has_body


@pytest.mark.parametrize("environ, expected", [
    ({}, False),
    ({"CONTENT_LENGTH": ""}, False),
    ({"CONTENT_LENGTH": "0"}, False),
    ({"CONTENT_LENGTH": "12"}, True),
    ({"HTTP_TRANSFER_ENCODING": "chunked"}, True),
    ({"HTTP_TRANSFER_ENCODING": "gzip, Chunked"}, True),
    ({"CONTENT_LENGTH": "0", "HTTP_TRANSFER_ENCODING": "chunked"}, True),
    ({"HTTP_TRANSFER_ENCODING": "gzip"}, False),
])
def test_a_body_is_a_length_above_zero_or_chunked_framing(environ, expected):
    assert has_body(environ) is expected


def test_a_get_with_nul_in_its_query_is_still_refused(client):
    response = client.get("/sites/MLA/domain_discovery/search", query_string={"q": "zapatilla\x00"})
    assert response.status_code == 400 and response.get_json()["error"] == "invalid_characters"
