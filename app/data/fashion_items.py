"""Fashion listings of the demo sellers, linked to a size chart of their site when one fits."""
import datetime as dt

from app.data.fashion import COLORS, FASHION_DOMAINS, GENDERS, fashion_brands, gender_value
from app.data.sites import CURRENCY_OF, language, localized
from app.data.users import SELLERS, sellers_of
from app.data.util import DEMO_NOW, iso, item_attribute, moment_between

ITEMS_PER_SELLER = {1003: 24, 2002: 14, 3001: 18, 4001: 6, 5001: 6, 6001: 5}
DOMAINS_OF_SELLER = {1003: ["SNEAKERS", "T_SHIRTS", "PANTS", "JACKETS", "SHIRTS", "DRESSES", "BOOTS"],
                     2002: ["T_SHIRTS", "DRESSES", "PANTS", "SNEAKERS", "JACKETS"],
                     3001: ["T_SHIRTS", "DRESSES", "SNEAKERS", "SHIRTS", "BOOTS", "PANTS"],
                     4001: ["T_SHIRTS", "SNEAKERS"], 5001: ["SNEAKERS", "T_SHIRTS"], 6001: ["SNEAKERS", "T_SHIRTS"]}
MODELS = {"Nike": ["Air Max SC", "Revolution 6", "Downshifter 12", "Court Vision Low"],
          "adidas": ["Runfalcon 3.0", "Grand Court 2.0", "Duramo SL", "Breaknet"],
          "Topper": ["Squash", "Costa", "Fast", "T.700"], "Puma": ["Smash V2", "Carina 2.0", "Flyer Runner"],
          "Olympikus": ["Corre 3", "Pride", "Ultraleve", "Delírio"], "Flexi": ["Casual 402", "Sport 2305"],
          "Caterpillar": ["Colorado", "Second Shift", "Threshold"], "Ringo": ["Hunter", "Trekker"],
          "Prüne": ["Chelsea", "Borcego Cuero"], "Democrata": ["Trail", "Smart Comfort"], "Cklass": ["Botín 5201"]}
HOUSE_MODELS = ["Urban", "Classic", "Street", "Essential", "Lisboa"]
WORDS = {
    "use": {"es": ["Running", "Urbanas", "Deportivas", "Training", "Casual"], "MLM": ["Running", "Casual", "Training"],
            "MCO": ["Running", "Casual", "Training"],
            "pt": ["Corrida", "Casual", "Academia", "Esportivo"]},
    "style": {"es": ["Básica", "Lisa", "Estampada", "Oversize", "Manga Larga"],
              "pt": ["Básica", "Lisa", "Estampada", "Oversized", "Manga Longa"]},
    "material": {"es": ["Algodón", "Algodón Peinado", "Dry Fit", "Lino", "Viscosa"],
                 "pt": ["Algodão", "Algodão Penteado", "Dry Fit", "Linho", "Viscose"]},
    "fit": {"es": ["Slim", "Recto", "Mom", "Skinny", "Cargo"], "pt": ["Slim", "Reta", "Mom", "Skinny", "Cargo"]},
    "dress": {"es": ["Largo", "Corto", "Midi", "Camisero"], "pt": ["Longo", "Curto", "Midi", "Chemise"]},
    "leather": {"es": ["Cuero", "Gamuza", "Sintético"], "pt": ["Couro", "Camurça", "Sintético"]},
    "jacket": {"es": ["Inflable", "Rompevientos", "de Jean", "Polar"],
               "MLM": ["Acolchada", "Rompevientos", "de Mezclilla"],
               "pt": ["Puffer", "Corta Vento", "Jeans", "Fleece"]},
}
TITLE_WORDS = {"MALE": {"es": "Hombre", "pt": "Masculino"}, "FEMALE": {"es": "Mujer", "pt": "Feminino"},
               "UNISEX": {"es": "Unisex", "pt": "Unissex"}, "KIDS": {"es": "Niños", "pt": "Infantil"}}
TITLES = {
    "SNEAKERS": {"es": "Zapatillas {brand} {model} {gender} {use}", "MLM": "Tenis {brand} {model} {use} para {gender}",
                 "MCO": "Tenis {brand} {model} {use} para {gender}", "pt": "Tênis {brand} {model} {gender} {use}"},
    "T_SHIRTS": {"es": "Remera {brand} {style} {material} {gender}",
                 "MLM": "Playera {brand} {style} {material} {gender}",
                 "MLC": "Polera {brand} {style} {material} {gender}",
                 "MCO": "Camiseta {brand} {style} {material} {gender}",
                 "pt": "Camiseta {brand} {style} {material} {gender}"},
    "PANTS": {"es": "Pantalón Jean {brand} {fit} {gender}", "MLM": "Pantalón de Mezclilla {brand} {fit} {gender}",
              "pt": "Calça Jeans {brand} {fit} {gender}"},
    "DRESSES": {"es": "Vestido {brand} {dress} de {material}", "pt": "Vestido {brand} {dress} de {material}"},
    "BOOTS": {"es": "Borcegos {brand} {model} de {leather} {gender}",
              "MLM": "Botas {brand} {model} de {leather} para {gender}",
              "pt": "Bota {brand} {model} {leather} {gender}"},
    "SHIRTS": {"es": "Camisa {brand} {fit} Manga Larga {gender}", "pt": "Camisa {brand} {fit} Manga Longa {gender}"},
    "JACKETS": {"es": "Campera {brand} {jacket} {gender}", "MLM": "Chamarra {brand} {jacket} {gender}",
                "pt": "Jaqueta {brand} {jacket} {gender}"},
}
PRICE = {"MLA": (18000, 160000, -2), "MLB": (59, 499, 0), "MLM": (299, 2499, 0), "MLU": (890, 4990, -1),
         "MLC": (14990, 79990, -1), "MCO": (69900, 359900, -2)}
NAMES = {"es": {"BRAND": "Marca", "MODEL": "Modelo", "GENDER": "Género", "COLOR": "Color",
                "SIZE_GRID_ID": "ID de la guía de talles"},
         "pt": {"BRAND": "Marca", "MODEL": "Modelo", "GENDER": "Gênero", "COLOR": "Cor",
                "SIZE_GRID_ID": "ID da tabela de medidas"}}


def _chart_for(charts, site_id, domain, gender, brand, seller_id):
    """The chart a seller would pick: the brand's own, else their own, else the marketplace standard."""
    def matching(chart):
        return (chart["site_id"] == site_id and chart["domain_id"] == domain
                and chart["attributes"][0]["values"][0]["id"] == GENDERS[gender][0])
    for wanted in ("BRAND", "SPECIFIC", "STANDARD"):
        for chart in charts:
            if not matching(chart) or chart["type"] != wanted:
                continue
            chart_brand = next((a["values"][0]["name"] for a in chart["attributes"] if a["id"] == "BRAND"), None)
            if wanted == "BRAND" and chart_brand != brand:
                continue
            if wanted == "SPECIFIC" and chart["seller_id"] != seller_id:
                continue
            return chart
    return None


def fashion_items(rng, charts, item_ids):
    items, titles = [], set()
    for seller_id in sellers_of("fashion"):
        _, site_id, _, house_brand = SELLERS[seller_id]
        lang = language(site_id)
        names = NAMES[lang]
        while sum(1 for item in items if item["seller_id"] == seller_id) < ITEMS_PER_SELLER[seller_id]:
            domain = rng.choice(DOMAINS_OF_SELLER[seller_id])
            gender = "FEMALE" if domain == "DRESSES" else rng.choice(["MALE", "FEMALE", "FEMALE", "UNISEX", "KIDS"])
            brands = fashion_brands(domain, site_id) if domain in ("SNEAKERS", "T_SHIRTS") or site_id in (
                "MLA", "MLB", "MLM") else []
            brand = house_brand if not brands or rng.random() < 0.3 else rng.choice(brands)
            model = rng.choice(MODELS.get(brand, HOUSE_MODELS))
            words = {key: rng.choice(localized(options, site_id)) for key, options in WORDS.items()}
            title = localized(TITLES[domain], site_id).format(
                brand=brand, model=model, gender=TITLE_WORDS[gender][lang], **words)
            if title in titles:
                continue
            titles.add(title)
            color_id, color_es, color_pt = rng.choice(COLORS)
            color = color_pt if lang == "pt" else color_es
            gender_attr = gender_value(gender, site_id)
            attributes = [item_attribute("BRAND", names["BRAND"], brand),
                          item_attribute("MODEL", names["MODEL"], model),
                          item_attribute("GENDER", names["GENDER"], gender_attr["name"], gender_attr["id"], "list"),
                          item_attribute("COLOR", names["COLOR"], color, color_id, "list")]
            chart = _chart_for(charts, site_id, domain, gender, brand, seller_id)
            if chart:
                attributes.append(item_attribute("SIZE_GRID_ID", names["SIZE_GRID_ID"], chart["id"], None, "grid_id"))
            low, high, digits = PRICE[site_id]
            created = moment_between(rng, dt.datetime(2024, 6, 1), DEMO_NOW - dt.timedelta(days=30))
            items.append({
                "id": item_ids.next(site_id), "site_id": site_id, "title": title, "seller_id": seller_id,
                "category_id": f"{site_id}{FASHION_DOMAINS[domain]['number']}", "domain_id": f"{site_id}-{domain}",
                "status": rng.choices(["active", "paused", "closed"], [90, 7, 3])[0],
                "price": float(round(rng.uniform(low, high), digits)), "currency_id": CURRENCY_OF[site_id],
                "official_store_id": None, "warranty": "Garantía del vendedor: 30 días" if lang == "es"
                else "Garantia do vendedor: 30 dias", "catalog_product_id": None, "parent_item_id": None,
                "deal_ids": [], "automatic_relist": rng.random() < 0.2, "catalog_listing": False,
                "health": round(rng.uniform(0.6, 1.0), 2), "date_created": iso(created),
                "last_updated": iso(moment_between(rng, created, DEMO_NOW - dt.timedelta(days=1))),
                "attributes": attributes})
    return items
