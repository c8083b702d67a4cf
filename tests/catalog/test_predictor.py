"""Category predictor (endpoint 27): a ranking of the site's domains for a free-text title."""
import pytest

from tests.bundles import SELLER, add_domain, item
from tests.charts_data import charts_bundle

PATH = "/sites/MLA/domain_discovery/search"


def predictor_bundle():
    bundle = charts_bundle()
    add_domain(bundle, "MLA-BACKPACKS", "Mochilas", "MLA7777", "Morrales y mochilas")
    bundle["domain_discovery"] = [
        {"site_id": "MLA", "domain_id": "MLA-SNEAKERS", "category_id": "MLA109027",
         "terms": ["zapatillas", "tenis", "sneakers", "calzado deportivo"]},
        {"site_id": "MLA", "domain_id": "MLA-T_SHIRTS", "category_id": "MLA417372",
         "terms": ["remera", "camiseta", "playera"]},
        {"site_id": "MLA", "domain_id": "MLA-PANTS", "category_id": "MLA158382", "terms": ["jean", "joggin"]}]
    titles = {"MLA-SNEAKERS": ("MLA109027", ["Zapatillas Nike Air Max hombre", "Zapatillas running adidas",
                                             "Zapatillas urbanas Topper lona"]),
              "MLA-T_SHIRTS": ("MLA417372", ["Remera algodón estampada", "Remera manga larga lisa"]),
              "MLA-PANTS": ("MLA158382", ["Pantalón cargo gabardina", "Jean chupín elastizado"]),
              "MLA-BRAKE_PADS": ("MLA1747", ["Pastillas de freno cerámicas Fras-le"])}
    n = 700
    for domain_id, (category_id, domain_titles) in titles.items():
        for title in domain_titles:
            n += 1
            bundle["items"].append(item(f"MLA{n}", category_id, domain_id, seller=SELLER, title=title))
    return bundle


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(predictor_bundle())


def predict(client, q, **params):
    response = client.get(PATH, query_string={"q": q, **params})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def top(client, q):
    answer = predict(client, q)
    return answer[0]["domain_id"] if answer else None


def test_predictor_is_public_and_answers_the_domain_and_its_category(client):
    answer = predict(client, "Zapatillas deportivas para correr")
    assert answer[0] == {"domain_id": "MLA-SNEAKERS", "domain_name": "Zapatillas", "category_id": "MLA109027",
                         "category_name": "Zapatillas", "attributes": []}


def test_predictor_ranks_several_domains_best_first(client):
    answer = predict(client, "remera y pantalón de algodón")
    assert [a["domain_id"] for a in answer][:2] == ["MLA-T_SHIRTS", "MLA-PANTS"]


@pytest.mark.parametrize("title", ["ZAPATILLAS", "zapatilla", "Zapatíllas", "zapatillas urbanas"])
def test_predictor_ignores_case_accents_and_plurals(client, title):
    assert top(client, title) == "MLA-SNEAKERS"


@pytest.mark.parametrize("title, domain_id", [
    ("pantalones", "MLA-PANTS"), ("remeras lisas", "MLA-T_SHIRTS"), ("pantalon", "MLA-PANTS")])
def test_predictor_matches_singular_and_plural_forms(client, title, domain_id):
    assert top(client, title) == domain_id


def test_predictor_learns_from_domain_names(client):
    assert top(client, "Botas de cuero") == "MLA-BOOTS"


def test_predictor_learns_from_category_names(client):
    assert top(client, "morral de cuero") == "MLA-BACKPACKS"


def test_predictor_learns_from_domain_discovery_terms(client):
    assert top(client, "playera oversize") == "MLA-T_SHIRTS"
    assert top(client, "tenis blancos") == "MLA-SNEAKERS"


def test_predictor_learns_from_item_titles(client):
    assert top(client, "cargo gabardina") == "MLA-PANTS"
    assert top(client, "Topper") == "MLA-SNEAKERS"


def test_predictor_sees_new_listings_without_restart(client, load_bundle):
    assert predict(client, "Kanaloa") == []
    bundle = predictor_bundle()
    bundle["items"].append(item("MLA999", "MLA414251", "MLA-BOOTS", title="Kanaloa texana"))
    load_bundle(bundle)
    assert top(client, "Kanaloa") == "MLA-BOOTS"


@pytest.mark.parametrize("q", ["xyzzy", "para con de", "123"])
def test_predictor_answers_an_empty_list_when_nothing_is_relevant(client, q):
    assert predict(client, q) == []


def test_predictor_limit_defaults_to_4_and_is_at_most_10(client):
    assert len(predict(client, "zapatillas remera pantalón botas mochila pastillas")) == 4
    assert len(predict(client, "zapatillas remera pantalón botas mochila pastillas", limit=2)) == 2
    response = client.get(PATH, query_string={"q": "zapatillas", "limit": 11})
    assert response.status_code == 400 and response.get_json()["cause"][0]["field"] == "limit"


def test_predictor_requires_q(client):
    response = client.get(PATH)
    body = response.get_json()
    assert response.status_code == 400 and body["error"] == "validation_error"
    assert body["cause"][0]["field"] == "q"


def test_predictor_of_an_unknown_site_is_404(client):
    response = client.get("/sites/XXX/domain_discovery/search", query_string={"q": "zapatillas"})
    assert response.status_code == 404 and response.get_json()["error"] == "site_not_found"


def test_predictor_only_answers_the_sites_domains(client):
    assert top(client, "Pastilhas de freio") != "MLB-BRAKE_PADS"
    response = client.get("/sites/MLB/domain_discovery/search", query_string={"q": "pastilhas freio"})
    assert response.get_json()[0]["domain_id"] == "MLB-BRAKE_PADS"
