"""A bundle with every section filled, built on `tests.bundles.base_bundle()`, for the importer's tests."""
from app.models import ALL_MODELS
from tests.bundles import OTHER_SELLER, SELLER, add_domain, base_bundle


def full_bundle():
    bundle = base_bundle()
    add_domain(bundle, "MLA-SNEAKERS", "Zapatillas", "MLA109027")
    bundle["compatibilities"] = [
        {"id": "bcbd413f-cd65-0e0f-88c9-5eb4aebb5372", "item_id": "MLA100", "product_id": "MLA90001",
         "source": "CATALOGO", "note": "Solo con ABS", "note_status": "APPROVED",
         "restrictions": [{"attribute_id": "POSITION", "attribute_values": [
             {"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}],
         "date_created": "2026-01-12T10:00:00Z"},
        {"item_id": "MLA100", "product_id": "MLA90002"},
        {"item_id": "MLA102", "universal": True, "source": "SELLER"},
    ]
    bundle["suggestions"] = [{"item_id": "MLA101", "product_id": "MLA90003"}]
    bundle["exceptions"] = [{"item_id": "MLA103", "comment": "El modelo 2026 aún no está en el catálogo"}]
    bundle["orders"] = [{"id": 2000004512, "item_id": "MLA100", "buyer_id": 2002,
                         "date_created": "2026-02-01T10:00:00Z",
                         "snapshot": {"product_id": "MLA90001",
                                      "user_selection": {"label_values": [{
                                          "label": "Marca", "value_name": "Volkswagen",
                                          "values": [{"attribute_id": "BRAND", "value_id": "60249"}]}]},
                                      "compatibility_status": {"compatibility": "CONFIRMED"},
                                      "date_created": "2026-02-01T10:00:00Z"}}]
    bundle["claims"] = [{"id": 5003001, "order_id": 2000004512, "date_created": "2026-02-05T10:00:00Z"}]
    bundle["chart_domains"] = [{"site_id": "MLA", "domain_id": "MLA-SNEAKERS"}]
    bundle["technical_specs"] = [
        {"domain_id": "MLA-SNEAKERS", "section": "SPECIFICATIONS", "input": {"groups": []}, "output": {}},
        {"domain_id": "MLA-SNEAKERS", "section": "GRIDS", "when": {"GENDER": "339666"},
         "input": {"groups": [{"id": "GRID", "label": "Talles"}]}, "output": {}}]
    bundle["charts"] = [
        {"id": "426237", "names": {"MLA": "Calzado hombre adidas"}, "site_id": "MLA", "domain_id": "SNEAKERS",
         "type": "BRAND", "main_attribute_id": "EU_SIZE", "secondary_attribute_id": "F_US_SIZE",
         "attributes": [{"id": "GENDER", "values": [{"id": "339666", "name": "Hombre"}]},
                        {"id": "BRAND", "values": [{"name": "adidas"}]}],
         "rows": [{"attributes": [{"id": "EU_SIZE", "values": [{"name": "40"}]}]},
                  {"attributes": [{"id": "EU_SIZE", "values": [{"name": "41"}]}]}]},
        {"id": "900001", "names": {"MLA": "Mi tabla"}, "site_id": "MLA", "domain_id": "SNEAKERS",
         "type": "SPECIFIC", "seller_id": OTHER_SELLER, "main_attribute_id": "EU_SIZE",
         "rows": [{"id": "900001:1", "attributes": [{"id": "EU_SIZE", "values": [{"name": "38"}]}]}]}]
    bundle["domain_discovery"] = [
        {"site_id": "MLA", "domain_id": "MLA-SNEAKERS", "category_id": "MLA109027",
         "terms": ["zapatillas", "tenis", "sneakers"]},
        {"site_id": "MLA", "domain_id": "MLA-BRAKE_PADS", "terms": ["pastillas", "frenos"]}]
    bundle["users"][0]["access_tokens"].append(f"TEST-{SELLER}-second")
    return bundle


def row_counts():
    """Rows per table, the notifications waiting for a worker among them: an import that changes
    nothing notifies nobody."""
    return {model.__name__: model.select().count() for model in ALL_MODELS}


def wipe():
    for model in reversed(ALL_MODELS):
        model.delete().execute()
