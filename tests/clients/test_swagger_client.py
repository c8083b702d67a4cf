"""Issue 29: swagger-client (the library behind Swagger UI; tests/clients/ts/swagger.mjs, run by node)
resolves the served document with no error, makes every operationId a callable under its tag, and
executes through it the token, public reads (one by `execute({operationId})`), a B3 check, and a seller's
read, If-Match write on a gzipped list (its tag as read), stale write (412) and history."""
import pytest
import requests

from tests.clients.node import run_script, swagger_script
from tests.clients.wire import CLIENT_ID, CLIENT_SECRET
from tests.compat.compat_data import GOL, compat, seeded_bundle

pytestmark = pytest.mark.slow
ITEM = "MLA100"


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(seeded_bundle(compatibilities=[compat(ITEM, pid) for pid in GOL[:3]]))


def test_swagger_client_resolves_every_operation_and_calls_them(live):
    document = requests.get(f"{live}/openapi.json", timeout=10).json()
    seen = run_script(swagger_script(), {"baseUrl": live, "clientId": CLIENT_ID, "clientSecret": CLIENT_SECRET,
                                         "siteId": "MLA", "itemId": ITEM, "productId": GOL[0]})
    assert seen["errors"] == []
    expected = {(method.upper(), path, operation["operationId"]) for path, item in document["paths"].items()
                for method, operation in item.items() if method in ("get", "post", "put", "delete", "patch")}
    assert {(o["method"], o["path"], o["operationId"]) for o in seen["operations"]} == expected
    assert [o for o in seen["operations"] if not o["callable"]] == []

    token = seen["token"]
    assert token["status"] == 200 and token["body"]["token_type"] == "Bearer" and token["body"]["access_token"]
    public = seen["public"]
    assert public["sites"]["status"] == 200 and {s["id"] for s in public["sites"]["body"]} >= {"MLA", "MLB"}
    assert (public["by_execute"]["status"], public["by_execute"]["body"]["id"]) == (200, "MLA")
    assert public["check"]["status"] == 200
    assert public["check"]["body"] == {"compatibility_status": "COMPATIBLE", "product_ids": [GOL[0]]}
    assert (public["without_token"]["status"], public["without_token"]["body"]["error"]) == (401, "invalid_token")

    seller = seen["seller"]
    assert seller["list"]["status"] == 200 and seller["list"]["etag"].endswith(':gzip"')
    assert sorted(p["catalog_product_id"] for p in seller["list"]["body"]["products"]) == sorted(GOL[:3])
    assert seller["written"]["status"] == 200 and seller["written"]["etag"] not in (None, seller["list"]["etag"])
    assert (seller["stale"]["status"], seller["stale"]["body"]["error"]) == (412, "precondition_failed")
    history = seller["history"]
    assert history["status"] == 200 and history["body"]["paging"]["total"] == 4  # 3 by the import, 1 here
    newest = history["body"]["results"][0]
    assert (newest["action"], newest["actor"]["kind"], newest["product_id"]) == ("UPDATE", "API", GOL[0])
    assert newest["changes"]["note"] == {"from": None, "to": "Escrita por swagger-client"}
