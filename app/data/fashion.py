"""Fashion domains and their vocabulary: genders, colours, sizes, brands and buyers' words."""
from app.data.sites import SITE_IDS, language, localized

FOOTWEAR, TOPS, BOTTOMS = "footwear", "tops", "bottoms"

# name: kind of size chart, category number, domain names, and the words buyers search with
FASHION_DOMAINS = {
    "SNEAKERS": {"kind": FOOTWEAR, "number": "109027",
                 "names": {"es": "Zapatillas", "pt": "Tênis", "MLM": "Tenis", "MCO": "Tenis"},
                 "terms": {"es": ["zapatillas", "zapatilla", "zapas", "sneakers", "zapatillas deportivas",
                                  "calzado deportivo"],
                           "pt": ["tênis", "tenis", "sneaker", "tênis esportivo", "tênis casual"],
                           "MLM": ["tenis", "tennis", "sneakers", "tenis deportivos", "zapatos deportivos"],
                           "MCO": ["tenis", "zapatillas", "sneakers", "tenis deportivos"],
                           "MPE": ["zapatillas", "zapatilla", "sneakers", "zapatillas urbanas"]}},
    "T_SHIRTS": {"kind": TOPS, "number": "417121",
                 "names": {"es": "Remeras", "pt": "Camisetas", "MLM": "Playeras", "MLC": "Poleras",
                           "MCO": "Camisetas", "MPE": "Polos"},
                 "terms": {"es": ["remera", "remeras", "camiseta", "t-shirt", "remera manga corta"],
                           "pt": ["camiseta", "camisetas", "t-shirt", "camiseta básica", "blusinha"],
                           "MLM": ["playera", "playeras", "camiseta", "t-shirt"],
                           "MLC": ["polera", "poleras", "camiseta", "t-shirt"],
                           "MCO": ["camiseta", "camisetas", "t-shirt", "franela"],
                           "MPE": ["polo", "polos", "camiseta", "polo manga corta"]}},
    "PANTS": {"kind": BOTTOMS, "number": "417125",
              "names": {"es": "Pantalones", "pt": "Calças"},
              "terms": {"es": ["pantalón", "pantalones", "jean", "jeans", "jogger", "chino"],
                        "pt": ["calça", "calças", "calça jeans", "jeans", "jogger"],
                        "MLM": ["pantalón", "pantalones", "pantalón de mezclilla", "jeans", "jogger"]}},
    "DRESSES": {"kind": TOPS, "number": "109085",
                "names": {"es": "Vestidos", "pt": "Vestidos"},
                "terms": {"es": ["vestido", "vestidos", "vestido largo", "vestido de fiesta"],
                          "pt": ["vestido", "vestidos", "vestido longo", "vestido de festa"]}},
    "BOOTS": {"kind": FOOTWEAR, "number": "109034",
              "names": {"es": "Botas y borcegos", "pt": "Botas", "MLM": "Botas"},
              "terms": {"es": ["botas", "bota", "borcegos", "borceguíes", "botines", "botinetas"],
                        "pt": ["bota", "botas", "coturno", "botina", "bota cano curto"],
                        "MLM": ["botas", "bota", "botines", "botas de piel", "botas vaqueras"]}},
    "SHIRTS": {"kind": TOPS, "number": "417123",
               "names": {"es": "Camisas", "pt": "Camisas"},
               "terms": {"es": ["camisa", "camisas", "camisa manga larga", "camisa de vestir"],
                         "pt": ["camisa", "camisas", "camisa social", "camisa manga longa"]}},
    "JACKETS": {"kind": TOPS, "number": "417127",
                "names": {"es": "Camperas", "pt": "Jaquetas", "MLM": "Chamarras"},
                "terms": {"es": ["campera", "camperas", "chaqueta", "campera inflable", "rompevientos"],
                          "pt": ["jaqueta", "jaquetas", "casaco", "corta vento", "jaqueta puffer"],
                          "MLM": ["chamarra", "chamarras", "chaqueta", "rompevientos", "chamarra acolchada"]}},
}
ALL_FASHION = list(FASHION_DOMAINS)
SMALL_SITES_FASHION = ["SNEAKERS", "T_SHIRTS"]

# Which fashion domains each site lists, and which of them are active for size charts (endpoint 22).
# Perú lists fashion but has no chart configuration at all.
FASHION_BY_SITE = {site: (ALL_FASHION if site in ("MLA", "MLB", "MLM") else SMALL_SITES_FASHION)
                   for site in SITE_IDS}
CHART_DOMAINS_BY_SITE = {"MLA": ALL_FASHION, "MLB": ALL_FASHION, "MLM": ALL_FASHION,
                         "MLU": ["SNEAKERS", "T_SHIRTS"], "MLC": ["SNEAKERS", "T_SHIRTS"], "MCO": ["SNEAKERS"]}
# Brand and standard charts exist only in the big three; elsewhere sellers make their own.
FULL_CHART_SITES = ("MLA", "MLB", "MLM")

GENDERS = {
    "MALE": ("339666", {"es": "Hombre", "pt": "Masculino"}),
    "FEMALE": ("339665", {"es": "Mujer", "pt": "Feminino"}),
    "UNISEX": ("110461", {"es": "Unisex", "pt": "Unissex"}),
    "KIDS": ("339668", {"es": "Niños", "pt": "Meninos"}),
}


def gender_value(key, site_id):
    value_id, names = GENDERS[key]
    return {"id": value_id, "name": names[language(site_id)]}


COLORS = [("52049", "Negro", "Preto"), ("52055", "Blanco", "Branco"), ("52028", "Azul", "Azul"),
          ("51993", "Rojo", "Vermelho"), ("283165", "Gris", "Cinza"), ("52014", "Verde", "Verde"),
          ("51994", "Rosa", "Rosa"), ("52021", "Beige", "Bege")]


def color_values(site_id):
    return [{"id": cid, "name": pt if language(site_id) == "pt" else es, "struct": None} for cid, es, pt in COLORS]


ADULT_SIZES = ["XS", "S", "M", "L", "XL", "XXL", "3XL"]
KIDS_SIZES = ["2", "4", "6", "8", "10", "12", "14", "16"]
FILTRABLE_SIZE_IDS = {size: str(3259478 + n) for n, size in enumerate(ADULT_SIZES + [f"K{k}" for k in KIDS_SIZES])}


def filtrable_size_value(size, kids=False):
    return {"id": FILTRABLE_SIZE_IDS[f"K{size}" if kids else size], "name": size}


# Shoe sizes: the local system of each site (the chart's main attribute) and the equivalences shown.
SHOE_SIZE = {"MLA": ("AR_SIZE", "Talle AR"), "MLB": ("BR_SIZE", "Tamanho BR"), "MLM": ("MX_SIZE", "Talla MX"),
             "MLU": ("UY_SIZE", "Talle UY"), "MLC": ("CL_SIZE", "Talla CL"), "MCO": ("CO_SIZE", "Talla CO")}
SHOE_EQUIVALENCES = {"MLA": ["EU_SIZE", "US_SIZE", "BR_SIZE"]}
DEFAULT_SHOE_EQUIVALENCES = ["EU_SIZE", "US_SIZE"]
SIZE_ATTRIBUTE_NAMES = {"EU_SIZE": {"es": "Talle EU", "pt": "Tamanho EU"},
                        "US_SIZE": {"es": "Talle US", "pt": "Tamanho US"},
                        "BR_SIZE": {"es": "Talle BR", "pt": "Tamanho BR"}}
EU_RANGES = {"MALE": range(38, 47), "FEMALE": range(34, 42), "UNISEX": range(35, 46), "KIDS": range(27, 36)}


def shoe_size(system, eu, gender):
    """One EU size in another system; the offsets are the usual retail conversions."""
    if system in ("AR_SIZE", "UY_SIZE", "CO_SIZE"):
        return str(eu - 1)
    if system == "BR_SIZE":
        return str(eu - 2)
    if system == "CL_SIZE" or system == "EU_SIZE":
        return str(eu)
    if system == "US_SIZE":
        us = eu - (31 if gender == "FEMALE" else 33) if gender != "KIDS" else eu - 16
        return f"{us:g}"
    if system == "MX_SIZE":  # Mexican sizes are the foot length in centimetres
        return f"{foot_length(eu):g}"
    raise ValueError(system)


def foot_length(eu, offset=0.0):
    return round(((eu - 2) / 1.5 + offset) * 2) / 2


# Brands that items and charts use. The held-out titles use other brands on purpose.
FASHION_BRANDS = {
    "SNEAKERS": {"MLA": ["Nike", "adidas", "Topper", "Puma"], "MLB": ["Olympikus", "Nike", "adidas", "Puma"],
                 "MLM": ["Nike", "adidas", "Flexi", "Puma"], "es": ["adidas", "Nike"]},
    "T_SHIRTS": {"MLA": ["Kevingston", "Levi's", "Wrangler"], "MLB": ["Hering", "Reserva", "Malwee"],
                 "MLM": ["Levi's", "Aéropostale", "Hanes"], "es": ["Wrangler", "Levi's"]},
    "PANTS": {"MLA": ["Levi's", "Wrangler", "Kevingston"], "MLB": ["Levi's", "Colcci", "Hering"],
              "MLM": ["Levi's", "Wrangler", "Aéropostale"]},
    "DRESSES": {"MLA": ["Rapsodia", "Portsaid"], "MLB": ["Farm", "Colcci"], "MLM": ["Ilusión", "Cklass"]},
    "BOOTS": {"MLA": ["Caterpillar", "Ringo", "Prüne"], "MLB": ["Caterpillar", "Democrata"],
              "MLM": ["Caterpillar", "Flexi", "Cklass"]},
    "SHIRTS": {"MLA": ["Kevingston", "Mistral"], "MLB": ["Reserva", "Aramis"], "MLM": ["Oggi", "Polo Club"]},
    "JACKETS": {"MLA": ["Montagne", "Columbia"], "MLB": ["Columbia", "Nike"], "MLM": ["Columbia", "Levi's"]},
}


def fashion_brands(domain, site_id):
    return localized(FASHION_BRANDS[domain], site_id)


def fashion_catalog():
    """domains, categories, chart_domains and domain_discovery of the fashion domains."""
    domains, categories, chart_domains, discovery = [], [], [], []
    for site_id in SITE_IDS:
        for name in FASHION_BY_SITE[site_id]:
            spec = FASHION_DOMAINS[name]
            domain_id, category_id = f"{site_id}-{name}", f"{site_id}{spec['number']}"
            label = localized(spec["names"], site_id)
            domains.append({"id": domain_id, "site_id": site_id, "name": label})
            categories.append({"id": category_id, "site_id": site_id, "name": label, "domain_id": domain_id})
            discovery.append({"site_id": site_id, "domain_id": domain_id, "category_id": category_id,
                              "terms": localized(spec["terms"], site_id)})
        for name in CHART_DOMAINS_BY_SITE.get(site_id, []):
            chart_domains.append({"site_id": site_id, "domain_id": f"{site_id}-{name}"})
    return domains, categories, chart_domains, discovery
