"""Listing titles that are NOT in the demo bundle, labelled with their domain, to measure a
title -> domain predictor (endpoint 27) on text it has not learnt from (test data: never shipped).

They come from other templates, other part and fashion brands, and other spellings (upper case,
lower case, missing accents) than the demo's items, so that a predictor that merely remembers item
titles does not look better than it is.
"""
import random
import unicodedata

from app.data.fashion import FASHION_BY_SITE
from app.data.part_items import POSITION_WORDS
from app.data.sites import language, localized
from app.data.vehicle_tables import VEHICLE_TABLES

PART_BRANDS = {
    "BRAKE_PADS": {"MLA": ["TRW", "Ferodo", "Brembo", "Varga"], "MLB": ["TRW", "Ecopads", "Ferodo", "Willtec"],
                   "MLM": ["Brembo", "Raybestos", "TRW", "Akebono"]},
    "BRAKE_DISCS": {"MLA": ["Brembo", "TRW", "Varga"], "MLB": ["TRW", "Brembo", "Fras-le"],
                    "MLM": ["Raybestos", "Brembo", "Bosch"]},
    "SHOCK_ABSORBERS": {"MLA": ["Koni", "Bilstein", "KYB"], "MLB": ["Sachs", "Kayaba", "Bilstein"],
                        "MLM": ["Boge", "Bilstein", "Sachs"]},
    "SPARK_PLUGS": {"MLA": ["Denso", "Magneti Marelli", "Autolite"], "MLB": ["Denso", "Champion", "Autolite"],
                    "MLM": ["Denso", "Bosch", "Autolite"]},
    "CAR_FLOOR_MATS": {"MLA": ["WeatherTech", "Kronos", "Auto Mat"], "MLB": ["WeatherTech", "Sparco", "Autolux"],
                       "MLM": ["WeatherTech", "Husky", "Gasparini"]},
    "AIR_FILTERS": {"MLA": ["Mahle", "Bosch", "Purflux"], "MLB": ["Mahle", "Wega", "Vox"],
                    "MLM": ["Mann", "Mahle", "Wix"]},
    "HEADLIGHTS": {"MLA": ["TYC", "Cibié", "Magneti Marelli"], "MLB": ["Hella", "Orgus", "TYC"],
                   "MLM": ["Hella", "Valeo", "Sonar"]},
    "WIPER_BLADES": {"MLA": ["Trico", "Michelin", "Hella"], "MLB": ["Trico", "Michelin", "Sparco"],
                     "MLM": ["Rain-X", "Michelin", "Valeo"]},
    "TIMING_BELTS": {"MLA": ["SKF", "INA", "Bosch"], "MLB": ["SKF", "INA", "Litens"],
                     "MLM": ["SKF", "Contitech", "INA"]},
    "CAR_BATTERIES": {"MLA": ["Bosch", "Varta", "Optima"], "MLB": ["Bosch", "Baterax", "Cral"],
                      "MLM": ["Bosch", "Interstate", "ACDelco"]},
}
PART_TEMPLATES = {
    "BRAKE_PADS": {"es": ["Juego de pastillas {pb} para {veh}", "pastillas freno {pos_fp} {veh} {pb}",
                          "Kit Pastillas Cerámicas {pb} {veh} {years}"],
                   "MLM": ["Balatas cerámicas {pb} {veh}", "Juego Balatas {pos_fp} {veh} {years} {pb}"],
                   "pt": ["Pastilhas de freio {pb} {veh} {years}", "jogo pastilha {pos_fs} {veh} {pb} cerâmica"]},
    "BRAKE_DISCS": {"es": ["Disco de freno {pb} {veh} x2 ventilado", "discos freno {pos_mp} {veh} {years} {pb}"],
                    "MLM": ["Rotor de freno {pb} {veh}", "Par rotores {veh} {pb}"],
                    "pt": ["Disco freio ventilado {pb} {veh} {years}", "par disco de freio {veh} {pb}"]},
    "SHOCK_ABSORBERS": {"es": ["Amortiguador {pb} {pos_ms} {veh} {years}", "par amortiguadores {veh} {pb} gas"],
                        "pt": ["Amortecedor {pos_ms} {pb} {veh} {years}", "kit amortecedores {veh} {pb} completo"]},
    "SPARK_PLUGS": {"es": ["Bujía {pb} {code} {veh} x4", "bujias {veh} {years} {pb}"],
                    "pt": ["Vela ignição {pb} {code} {veh}", "jogo velas {veh} {pb}"]},
    "CAR_FLOOR_MATS": {"es": ["Cubre alfombras {pb} {veh} goma", "alfombra auto {veh} bandeja {pb}"],
                       "MLM": ["Tapete {pb} {veh} uso rudo", "tapetes auto {veh} {pb}"],
                       "MLC": ["Pisos de goma {pb} {veh}"], "MCO": ["Tapetes {pb} para {veh}"],
                       "MPE": ["Pisos de jebe {pb} {veh}"],
                       "pt": ["Tapete {pb} {veh} bandeja", "kit tapete carro {veh} {pb}"]},
    "AIR_FILTERS": {"es": ["Filtro aire {pb} {veh} {years}", "FILTRO DE AIRE {veh} {pb}"],
                    "pt": ["Filtro ar motor {pb} {veh} {years}", "filtro de ar {veh} {pb} original"]},
    "HEADLIGHTS": {"es": ["Faro delantero {side} {veh} {years} {pb}", "Óptica {veh} {pb} {side} con regulación"],
                   "MLM": ["Faro {veh} {years} {side} {pb}", "faros {veh} par {pb}"],
                   "MLC": ["Foco delantero {side} {veh} {pb}"], "MCO": ["Farola {side} {veh} {pb}"],
                   "pt": ["Farol {veh} {years} {side} {pb}", "par farol {veh} {pb}"]},
    "WIPER_BLADES": {"es": ["Escobilla {pb} {veh} {inches}\"", "limpiaparabrisas {veh} {pb} par"],
                     "MLM": ["Pluma limpiadora {pb} {veh}", "plumas {veh} {pb} par"],
                     "MLC": ["Plumilla {pb} {veh}"], "MCO": ["Plumillas {pb} para {veh}"],
                     "MPE": ["Plumillas {pb} {veh}"],
                     "pt": ["Palheta {pb} {veh} {inches} polegadas", "kit palhetas {veh} {pb}"]},
    "TIMING_BELTS": {"es": ["Correa de distribución {pb} {veh} {years}", "kit distribucion {veh} {pb} + tensor"],
                     "MLM": ["Banda de tiempo {pb} {veh}", "kit banda distribucion {veh} {pb}"],
                     "MCO": ["Kit correa de repartición {pb} {veh}"],
                     "pt": ["Correia dentada {pb} {veh} {years}", "kit distribuição {veh} {pb} com tensor"]},
    "CAR_BATTERIES": {"es": ["Bateria {pb} 12v 65 amp {veh}", "BATERÍA {pb} {veh} {years}"],
                      "MLM": ["Acumulador {pb} {veh} {years}", "bateria carro {veh} {pb}"],
                      "pt": ["Bateria {pb} 60 amperes {veh}", "bateria carro {veh} {pb} 12v"]},
}
SIDES = {"es": ["lado izquierdo", "lado derecho"], "pt": ["lado esquerdo", "lado direito"]}
PLUG_CODES = ["K20PR-U", "FR7DCX", "ILZKR7B11", "BKR6E", "RC12YC", "XU22EPR-U"]

FASHION_BRANDS = {
    "SNEAKERS": {"Fila": "Disruptor II", "Reebok": "Club C 85", "New Balance": "574", "Vans": "Old Skool",
                 "Converse": "Chuck Taylor All Star", "Mizuno": "Wave Prophecy", "Asics": "Gel-Nimbus 25",
                 "Under Armour": "Charged Assert", "Diadora": "Mythos", "Skechers": "Go Walk"},
    "T_SHIRTS": ["Lacoste", "Tommy Hilfiger", "Champion", "Polo Ralph Lauren", "Ellesse", "Umbro"],
    "PANTS": ["Lee", "Diesel", "Calvin Klein", "Guess"],
    "DRESSES": ["Kosiuko", "Mango", "Forever 21", "Desigual"],
    "BOOTS": ["Timberland", "Dr. Martens", "Hush Puppies", "Pampili"],
    "SHIRTS": ["Dockers", "Van Heusen", "Tommy Hilfiger"],
    "JACKETS": ["The North Face", "Patagonia", "Quiksilver"],
}
FASHION_TEMPLATES = {
    "SNEAKERS": {"es": ["Zapatillas {brand} {model} Urbanas {gender}", "zapas {brand} {model} originales",
                        "Zapatilla Running {brand} {model} {gender} Talle {size}"],
                 "MLM": ["Tenis {brand} {model} Originales {gender}", "tenis casuales {brand} {model} {gender}"],
                 "MCO": ["Tenis {brand} {model} {gender} Originales"],
                 "pt": ["Tênis {brand} {model} Original {gender}",
                        "tênis casual {brand} {model} {gender} tamanho {size}"]},
    "T_SHIRTS": {"es": ["Remera {brand} Original {gender} Manga Corta", "remeras {brand} lisas pack x3"],
                 "MLM": ["Playera {brand} Cuello Redondo {gender}", "playeras {brand} básicas paquete 3"],
                 "MLC": ["Polera {brand} Logo {gender}"], "MCO": ["Camiseta {brand} Original {gender}"],
                 "MPE": ["Polo {brand} Manga Corta {gender}"],
                 "pt": ["Camiseta {brand} Gola Careca {gender}", "kit 3 camisetas {brand} básicas"]},
    "PANTS": {"es": ["Jean {brand} Chupín {gender}", "Pantalón Cargo {brand} Gabardina {gender}",
                     "jogger {brand} frisa {gender}"],
              "MLM": ["Jeans {brand} Corte Recto {gender}", "Pantalón Jogger {brand} {gender}"],
              "pt": ["Calça {brand} Skinny {gender}", "calça jogger {brand} moletom {gender}"]},
    "DRESSES": {"es": ["Vestido de Fiesta {brand} Largo", "vestido {brand} floreado verano",
                       "Vestido Tejido {brand} Mujer"],
                "pt": ["Vestido Longo {brand} Festa", "vestido {brand} floral verão", "Vestido Tubinho {brand}"]},
    "BOOTS": {"es": ["Borceguí {brand} Cuero {gender}", "botas {brand} impermeables {gender}",
                     "Botinetas {brand} Mujer Taco Bajo"],
              "MLM": ["Botas {brand} Piel {gender}", "Botines {brand} {gender} Casual"],
              "pt": ["Coturno {brand} Couro {gender}", "Bota Cano Curto {brand} {gender}", "botina {brand} {gender}"]},
    "SHIRTS": {"es": ["Camisa {brand} Oxford {gender}", "camisa de vestir {brand} {gender} slim fit"],
               "MLM": ["Camisa {brand} Manga Corta {gender}"],
               "pt": ["Camisa Social {brand} {gender}", "camisa xadrez {brand} {gender} flanela"]},
    "JACKETS": {"es": ["Campera {brand} Impermeable {gender}", "camperón {brand} pluma {gender}",
                       "Chaqueta {brand} Softshell {gender}"],
                "MLM": ["Chamarra {brand} Impermeable {gender}", "chaqueta {brand} {gender} invierno"],
                "pt": ["Jaqueta {brand} Impermeável {gender}", "casaco {brand} {gender} inverno"]},
}
GENDER_WORDS = {"es": ["Hombre", "Mujer", "Unisex", "Niños", "Dama", "Caballero"],
                "pt": ["Masculino", "Feminino", "Unissex", "Infantil"]}
# (site, part titles, fashion titles)
QUOTAS = [("MLA", 70, 36), ("MLB", 60, 30), ("MLM", 50, 26), ("MLU", 5, 4), ("MLC", 5, 4), ("MCO", 5, 3), ("MPE", 4, 2)]


def _strip_accents(text):
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _spelling(rng, text):
    """How real sellers type: some shout, some never press shift, some skip accents."""
    roll = rng.random()
    if roll < 0.12:
        return text.upper()
    if roll < 0.24:
        return text.lower()
    if roll < 0.34:
        return _strip_accents(text)
    return text


def _vehicle(rng, site_id):
    """A vehicle as sellers name it (with or without brand or engine) and the years it was sold."""
    table = VEHICLE_TABLES[(site_id, "CARS_AND_VANS")]
    brand = rng.choice(sorted(table))
    model = rng.choice(sorted(table[brand]))
    first, last, versions = table[brand][model][:3]
    engine = (versions[0] if isinstance(versions[0], str) else versions[0][0]).split()[0]
    full = model if model.startswith(f"{brand} ") else f"{brand} {model}"
    text = rng.choice([f"{full} {engine}", f"{full} {engine}", f"{model} {engine}", full])
    return text, (max(first, 2008), min(last, 2024))


def _part_title(rng, site_id, domain):
    lang = language(site_id)
    template = rng.choice(localized(PART_TEMPLATES[domain], site_id))
    vehicle, (start, end) = _vehicle(rng, site_id)
    first, last = sorted(rng.sample(range(start, end + 1), 2)) if end > start else (start, end)
    words = POSITION_WORDS[lang][rng.choice(["FRONT", "FRONT", "REAR"])]
    return template.format(
        pb=rng.choice(PART_BRANDS[domain].get(site_id, PART_BRANDS[domain]["MLA"])), veh=vehicle,
        years=rng.choice([f"{first}-{last}", f"{first}/{last}", f"{first} a {last}"]),
        pos_fp=words[0], pos_mp=words[1], pos_fs=words[2], pos_ms=words[3], side=rng.choice(SIDES[lang]),
        code=rng.choice(PLUG_CODES), inches=rng.choice(["16", "18", "20", "22", "24"]))


def _fashion_title(rng, site_id, domain):
    brands = FASHION_BRANDS[domain]
    brand = rng.choice(sorted(brands))
    return rng.choice(localized(FASHION_TEMPLATES[domain], site_id)).format(
        brand=brand, model=brands[brand] if isinstance(brands, dict) else "",
        gender=rng.choice(GENDER_WORDS[language(site_id)]), size=rng.choice(["38", "40", "41", "42", "43"]))


def held_out_titles():
    rng = random.Random("demo-held-out-titles")
    rows, seen = [], set()
    for site_id, parts, clothes in QUOTAS:
        for count, domains, make in ((parts, sorted(PART_TEMPLATES), _part_title),
                                     (clothes, FASHION_BY_SITE[site_id], _fashion_title)):
            made = 0
            while made < count:
                domain = domains[made % len(domains)]
                title = " ".join(_spelling(rng, make(rng, site_id, domain)).split())
                if (site_id, title.lower()) in seen:
                    continue
                seen.add((site_id, title.lower()))
                rows.append({"site_id": site_id, "title": title, "domain_id": f"{site_id}-{domain}"})
                made += 1
    return rows


DEMO_HELD_OUT_TITLES = held_out_titles()
