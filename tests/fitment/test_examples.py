"""The documented fitment examples are the demo's real answers (schemas/examples/fitment.py)."""
from app.data.demo import build_demo_bundle
from schemas.examples import fitment as examples

GOL_2010 = "BRAND:60249;MODEL:62109;VEHICLE_YEAR:2010"


def test_search_examples_are_answers_of_the_demo(client, load_bundle):
    load_bundle(build_demo_bundle())
    by_filter = client.get(f"/sites/MLA/search?compatibility_filter={GOL_2010}&limit=3&offset=3").get_json()
    assert by_filter == examples.SEARCH_COMPATIBILITY_FILTER
    # Ranked by words: ties may fall in another order on each database, so the page is compared as a set.
    by_product = client.get("/sites/MLA/search?compatible_with=MLA15900013&q=pastillas&limit=2").get_json()
    documented = examples.SEARCH_COMPATIBLE_WITH
    assert sorted(by_product["results"], key=lambda r: r["id"]) == documented["results"]
    assert {k: v for k, v in by_product.items() if k != "results"} == \
        {k: v for k, v in documented.items() if k != "results"}


def test_the_demo_shows_compatible_undetermined_and_universal_parts_for_the_example_vehicle(client, load_bundle):
    load_bundle(build_demo_bundle())
    body = client.get(f"/sites/MLA/search?compatibility_filter={GOL_2010}").get_json()
    statuses = {r["id"]: r["compatibility"]["status"] for r in body["results"]}
    assert {"COMPATIBLE", "UNDETERMINED"} == set(statuses.values())
    assert statuses["MLA1500000002"] == statuses["MLA1500000003"] == "COMPATIBLE"  # the universal ones
    assert "MLA1500000161" not in statuses  # paused


def test_check_examples_are_answers_of_the_demo(client, load_bundle):
    load_bundle(build_demo_bundle())
    for request, answer in ((examples.CHECK_PRODUCT_REQUEST, examples.CHECK_COMPATIBLE),
                            (examples.CHECK_VEHICLE_REQUEST, examples.CHECK_UNDETERMINED),
                            ({"product_id": "MLA15900012"}, examples.CHECK_EXAMPLES["not_compatible"]["value"])):
        assert client.post("/items/MLA1500000158/check_compatibility", json=request).get_json() == answer
