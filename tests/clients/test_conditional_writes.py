"""Issue 29, item 1: the read, If-Match write, read again loop of a default `requests.Session` and a
default `httpx.Client` (both ask for gzip) against gunicorn, on a list gzipped for them (H2, H3)."""
import httpx
import pytest
import requests

from tests.compat.compat_data import GOL, SELLER_H, compat, full_bundle, product, url
from tests.gunicorn_util import Gunicorn, fresh_database, load_database
from tests.helpers import BACKENDS

pytestmark = pytest.mark.slow

CLIENTS = {"requests": requests.Session, "httpx": httpx.Client}
ITEMS = {"requests": "MLA100", "httpx": "MLA101"}  # one item each: the server is shared


@pytest.fixture(scope="module", params=BACKENDS)
def base(request, tmp_path_factory):
    directory = tmp_path_factory.mktemp("conditional")
    bundle = full_bundle(compatibilities=[compat(item, pid) for item in ITEMS.values() for pid in GOL[:3]])
    with fresh_database(request.param, directory) as database_url:
        load_database(database_url, bundle, directory)
        with Gunicorn(database_url, directory, workers=2) as gunicorn:
            yield f"http://127.0.0.1:{gunicorn.port}"
            errors = gunicorn.errors()
        assert "Traceback" not in errors, errors[-3000:]


@pytest.fixture(params=sorted(CLIENTS))
def session(request, base):
    """(a client as its library makes it by default, with only the seller's token added; the list's URL)."""
    with CLIENTS[request.param]() as client:
        client.headers.update(SELLER_H)
        yield client, base + url(ITEMS[request.param]) + "?extended=true"


def read(client, list_url, **headers):
    response = client.get(list_url, headers=headers)
    assert response.status_code == 200, response.text
    assert "gzip" in response.request.headers["Accept-Encoding"]  # the library's default
    assert response.headers["Content-Encoding"] == "gzip"  # decoded by the library
    return response.headers["ETag"], {entry["catalog_product_id"]: entry.get("note")
                                      for entry in response.json()["products"]}


def test_read_conditional_write_read_again(session):
    client, list_url = session
    tag, entries = read(client, list_url)
    assert len(entries) >= 3 and GOL[3] not in entries
    added = client.post(list_url, json={"products": [product(GOL[3], note="Agregado")]}, headers={"If-Match": tag})
    assert added.status_code == 200, added.text
    assert added.json() == {"created_compatibilities_count": 1} and added.headers["ETag"] not in ("", tag)
    tag_after, entries = read(client, list_url)
    assert entries[GOL[3]] == "Agregado" and tag_after != tag
    # A write's own answer is small (not gzipped): its plain tag works as well as a gzipped list's.
    current = added.headers["ETag"]
    for note in ("Cambio", "Otra vez"):
        updated = client.put(list_url, json={"update": {"products": [{"id": GOL[3], "note": note}]}},
                             headers={"If-Match": current})
        assert updated.status_code == 200, updated.text
        current, entries = read(client, list_url)
        assert entries[GOL[3]] == note and current == updated.headers["ETag"][:-1] + ':gzip"'


def test_a_stale_if_match_is_412_and_writes_nothing(session):
    client, list_url = session
    stale, before = read(client, list_url)
    assert client.put(list_url, json={"update": {"products": [{"id": GOL[0], "note": "Primero"}]}},
                      headers={"If-Match": stale}).status_code == 200
    tag, entries = read(client, list_url)
    refused = client.put(list_url, json={"update": {"products": [{"id": GOL[0], "note": "Perdido"}]}},
                         headers={"If-Match": stale})
    assert (refused.status_code, refused.json()["error"]) == (412, "precondition_failed")
    assert read(client, list_url) == (tag, entries) and entries[GOL[0]] == "Primero"


def test_if_none_match_from_a_gzip_client_is_304(session):
    client, list_url = session
    tag, _ = read(client, list_url)
    for sent in (tag, "W/" + tag):
        response = client.get(list_url, headers={"If-None-Match": sent})
        assert (response.status_code, response.content, response.headers["ETag"]) == (304, b"", tag), sent


def test_a_weak_tag_in_if_match_is_refused(session):
    client, list_url = session
    tag, entries = read(client, list_url)
    refused = client.put(list_url, json={"update": {"products": [{"id": GOL[1], "note": "Débil"}]}},
                         headers={"If-Match": "W/" + tag})
    assert (refused.status_code, refused.json()["error"]) == (412, "precondition_failed")
    assert read(client, list_url) == (tag, entries)


def test_gzip_q0_gets_identity(session):
    client, list_url = session
    tag, entries = read(client, list_url)
    response = client.get(list_url, headers={"Accept-Encoding": "gzip;q=0"})
    assert response.status_code == 200 and "Content-Encoding" not in response.headers
    assert int(response.headers["Content-Length"]) == len(response.content) > 500
    assert response.headers["ETag"] == tag.replace(':gzip"', '"') != tag
    assert {e["catalog_product_id"]: e.get("note") for e in response.json()["products"]} == entries
