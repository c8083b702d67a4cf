"""Part listings of the demo sellers: realistic titles for the vehicles each listing fits.

Each listing is planned together with its fitment (the child products it is compatible with), so that
the title and the compatibilities tell the same story: "Pastillas de freno delanteras Fras-le
Volkswagen Gol Trend 1.6" fits the 1.6 versions of the Gol Trend.
"""
import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field

from app.data.parts import PART_DOMAINS, POSITIONS, PartCategory, categories_of, category_id
from app.data.sites import CURRENCY_OF, language, localized
from app.data.users import sellers_of
from app.data.util import DEMO_NOW, iso, item_attribute, moment_between

ITEM_ID_BASE = 1500000000
CHOOSE = object()  # make() picks the listing's position itself
PART_ITEMS_PER_SELLER = {1001: 80, 1002: 52, 2001: 55, 3002: 36}
DOMAIN_WEIGHTS = {"BRAKE_PADS": 18, "BRAKE_DISCS": 8, "SHOCK_ABSORBERS": 10, "SPARK_PLUGS": 12,
                  "CAR_FLOOR_MATS": 6, "AIR_FILTERS": 10, "HEADLIGHTS": 7, "WIPER_BLADES": 6,
                  "TIMING_BELTS": 9, "CAR_BATTERIES": 6}
MOTO_DOMAINS = ("BRAKE_PADS", "SPARK_PLUGS", "AIR_FILTERS")
MAX_FITMENT = 180

# Brands the demo's own listings use. The predictor test's held-out titles (tests/catalog/heldout_data.py)
# use other brands.
PART_BRANDS = {
    "BRAKE_PADS": {"MLA": ["Fras-le", "Bosch", "Jurid", "Frenotec"], "MLB": ["Cobreq", "Fras-le", "Bosch", "Syl"],
                   "MLM": ["Wagner", "Bosch", "Fritec", "ACDelco"]},
    "BRAKE_DISCS": {"MLA": ["Fremax", "Bosch", "Hipper Freios"], "MLB": ["Fremax", "Hipper Freios", "Cobreq"],
                    "MLM": ["Fritec", "Wagner", "ACDelco"]},
    "SHOCK_ABSORBERS": {"MLA": ["Corven", "Fric-Rot", "Monroe", "Sachs"], "MLB": ["Cofap", "Monroe", "Nakata"],
                        "MLM": ["Monroe", "Gabriel", "KYB"]},
    "SPARK_PLUGS": {"MLA": ["NGK", "Bosch", "Champion"], "MLB": ["NGK", "Bosch", "Magneti Marelli"],
                    "MLM": ["NGK", "Champion", "Motorcraft"]},
    "CAR_FLOOR_MATS": {"MLA": ["Lamarca", "Sportmat", "Rizzi"], "MLB": ["Kacyumara", "Borcol", "Rox"],
                       "MLM": ["Tapetes Pirámide", "Sportmat", "Hule Max"]},
    "AIR_FILTERS": {"MLA": ["Mann", "Fram", "Wega"], "MLB": ["Tecfil", "Mann", "Fram"],
                    "MLM": ["Fram", "Gonher", "Interfil"]},
    "HEADLIGHTS": {"MLA": ["Hella", "Valeo", "DEPO"], "MLB": ["Arteb", "Valeo", "Fitam"],
                   "MLM": ["Depo", "TYC", "Eagle Eyes"]},
    "WIPER_BLADES": {"MLA": ["Bosch", "Dyna", "Valeo"], "MLB": ["Bosch", "Dyna", "Valeo"],
                     "MLM": ["Bosch", "Trico", "Anco"]},
    "TIMING_BELTS": {"MLA": ["Dayco", "Gates", "Contitech"], "MLB": ["Dayco", "Gates", "Contitech"],
                     "MLM": ["Gates", "Dayco", "Goodyear"]},
    "CAR_BATTERIES": {"MLA": ["Willard", "Moura", "Prestolite"], "MLB": ["Moura", "Heliar", "Zetta"],
                      "MLM": ["LTH", "Gonher", "Optima"]},
}
PLUG_LINES = ["Iridium", "Platinum", "Laser Platinum", "G-Power", ""]

# {pos_fp} etc. are the position word agreeing with the noun: feminine/masculine, plural/singular.
TITLES = {
    "BRAKE_PADS": {"es": ["Pastillas de freno {pos_fp} {pb} {veh}", "Juego pastillas de freno {pos_fp} {pb} {veh}"],
                   "MLM": ["Balatas {pos_fp} {pb} {veh}", "Juego de balatas {pos_fp} {pb} para {veh}"],
                   "pt": ["Pastilha de freio {pos_fs} {pb} {veh}", "Jogo pastilha freio {pos_fs} {pb} {veh}"]},
    "BRAKE_DISCS": {"es": ["Par de discos de freno {pos_mp} {pb} {veh}",
                           "Discos de freno {pos_mp} ventilados {pb} {veh}"],
                    "MLM": ["Par de discos de freno {pos_mp} {pb} {veh}", "Rotores de freno {pos_mp} {pb} {veh}"],
                    "pt": ["Par de discos de freio {pos_mp} {pb} {veh}",
                           "Disco de freio {pos_ms} ventilado {pb} {veh}"]},
    "SHOCK_ABSORBERS": {"es": ["Kit 2 amortiguadores {pos_mp} {pb} {veh}", "Amortiguadores {pos_mp} {pb} {veh}"],
                        "pt": ["Par amortecedor {pos_ms} {pb} {veh}", "Kit 2 amortecedores {pos_mp} {pb} {veh}"]},
    "SPARK_PLUGS": {"es": ["Kit 4 bujías {pb} {line} {veh}", "Juego de bujías {pb} {line} {veh}"],
                    "pt": ["Jogo 4 velas de ignição {pb} {line} {veh}", "Kit velas {pb} {line} {veh}"]},
    "CAR_FLOOR_MATS": {"es": ["Alfombras de goma {pb} {veh} 4 piezas", "Juego de alfombras {pb} {veh}"],
                       "MLM": ["Tapetes de hule {pb} {veh} 4 piezas", "Juego de tapetes {pb} {veh}"],
                       "pt": ["Jogo de tapetes de borracha {pb} {veh}", "Tapete automotivo {pb} {veh} 4 peças"]},
    "AIR_FILTERS": {"es": ["Filtro de aire {pb} {veh}", "Filtro de aire motor {pb} {veh}"],
                    "pt": ["Filtro de ar {pb} {veh}", "Filtro de ar do motor {pb} {veh}"]},
    "HEADLIGHTS": {"es": ["Óptica delantera {pos_fs} {pb} {veh}", "Óptica {pos_fs} {pb} {veh}"],
                   "MLM": ["Faro delantero {pos_ms} {pb} {veh}", "Faro {pos_ms} {pb} {veh}"],
                   "pt": ["Farol {pos_ms} {pb} {veh}", "Farol dianteiro {pos_ms} {pb} {veh}"]},
    "WIPER_BLADES": {"es": ["Escobillas limpiaparabrisas {pos_fp} {pb} {veh}", "Kit escobillas {pos_fp} {pb} {veh}"],
                     "MLM": ["Plumas limpiaparabrisas {pos_fp} {pb} {veh}"],
                     "pt": ["Palheta limpador {pos_fs} {pb} {veh}", "Par de palhetas {pos_fp} {pb} {veh}"]},
    "TIMING_BELTS": {"es": ["Kit de distribución {pb} {veh}", "Kit distribución con bomba de agua {pb} {veh}"],
                     "MLM": ["Kit de banda de distribución {pb} {veh}"],
                     "pt": ["Kit correia dentada {pb} {veh}", "Kit correia dentada com tensor {pb} {veh}"]},
    "CAR_BATTERIES": {"es": ["Batería {pb} 12x65 {veh}", "Batería {pb} 12V 75Ah {veh}"],
                      "MLM": ["Acumulador {pb} {veh}", "Batería {pb} 12V {veh}"],
                      "pt": ["Bateria {pb} 60Ah {veh}", "Bateria automotiva {pb} 70Ah {veh}"]},
}
UNIVERSAL_TITLES = {
    "CAR_FLOOR_MATS": {"es": "Alfombras de goma universales {pb} 4 piezas",
                       "MLM": "Tapetes universales de hule {pb} 4 piezas",
                       "pt": "Jogo de tapetes universal {pb} 4 peças"},
    "WIPER_BLADES": {"es": "Escobilla limpiaparabrisas universal {pb} 20 pulgadas",
                     "MLM": "Pluma limpiaparabrisas universal {pb} 20 pulgadas",
                     "pt": "Palheta universal {pb} 20 polegadas"},
}
POSITION_WORDS = {
    "es": {"FRONT": ("delanteras", "delanteros", "delantera", "delantero"),
           "REAR": ("traseras", "traseros", "trasera", "trasero"),
           "LEFT": ("izquierdas", "izquierdos", "izquierda", "izquierdo"),
           "RIGHT": ("derechas", "derechos", "derecha", "derecho")},
    "pt": {"FRONT": ("dianteiras", "dianteiros", "dianteira", "dianteiro"),
           "REAR": ("traseiras", "traseiros", "traseira", "traseiro"),
           "LEFT": ("esquerdas", "esquerdos", "esquerda", "esquerdo"),
           "RIGHT": ("direitas", "direitos", "direita", "direito")},
}
# What a position-bearing part is usually sold for: pads and discs mostly front, lights one side.
POSITION_CHOICES = {"BRAKE_PADS": ["FRONT", "FRONT", "REAR"], "BRAKE_DISCS": ["FRONT", "FRONT", "REAR"],
                    "SHOCK_ABSORBERS": ["FRONT", "REAR"], "HEADLIGHTS": ["LEFT", "RIGHT"],
                    "WIPER_BLADES": ["FRONT", "FRONT", "REAR"]}
PRICE_ARS = {"BRAKE_PADS": (28000, 65000), "BRAKE_DISCS": (60000, 140000), "SHOCK_ABSORBERS": (90000, 260000),
             "SPARK_PLUGS": (18000, 70000), "CAR_FLOOR_MATS": (25000, 60000), "AIR_FILTERS": (9000, 25000),
             "HEADLIGHTS": (80000, 350000), "WIPER_BLADES": (12000, 35000), "TIMING_BELTS": (70000, 220000),
             "CAR_BATTERIES": (120000, 280000)}
PRICE_FACTOR = {"MLA": 1.0, "MLB": 0.0045, "MLM": 0.018}
WARRANTIES = {"es": ["Garantía del vendedor: 6 meses", "Garantía de fábrica: 12 meses",
                     "Garantía del vendedor: 3 meses", "Sin garantía"],
              "pt": ["Garantia do vendedor: 3 meses", "Garantia de fábrica: 12 meses", "Garantia do vendedor: 90 dias"]}
ATTRIBUTE_NAMES = {"es": {"BRAND": "Marca", "PART_NUMBER": "Número de pieza", "ITEM_CONDITION": "Condición del ítem",
                          "POSITION": "Posición", "NEW": "Nuevo"},
                   "pt": {"BRAND": "Marca", "PART_NUMBER": "Número de peça", "ITEM_CONDITION": "Condição do item",
                          "POSITION": "Posição", "NEW": "Novo"}}
NEW_CONDITION_ID = "2230284"


@dataclass
class PartListing:
    """An item with what the rest of the demo needs to know about it."""
    item: dict
    domain: str
    category: PartCategory
    position: str | None = None
    fitment: list = field(default_factory=list)  # Vehicles it is compatible with
    universal: bool = False
    catalog_source: bool = False  # its compatibilities were loaded by the marketplace (CATALOGO)
    exception: str | None = None


class VehicleIndex:
    def __init__(self, vehicles):
        self.by_model = defaultdict(list)
        self.by_id = {}
        for vehicle in vehicles:
            self.by_model[(vehicle.domain_id, vehicle.brand, vehicle.model)].append(vehicle)
            self.by_id[vehicle.id] = vehicle
        self.models = defaultdict(list)
        for domain_id, brand, model in self.by_model:
            self.models[domain_id].append((brand, model))

    def of_model(self, domain_id, brand, model, displacement=None):
        return [v for v in self.by_model[(domain_id, brand, model)]
                if displacement is None or v.displacement == displacement]


def _clean(text):
    return re.sub(r"\s+", " ", text).strip()


def _title(rng, domain, site_id, part_brand, vehicle_text, position):
    templates = localized(TITLES[domain], site_id)
    words = POSITION_WORDS[language(site_id)].get(position, ("",) * 4)
    return _clean(rng.choice(templates).format(
        pb=part_brand, veh=vehicle_text, line=rng.choice(PLUG_LINES),
        pos_fp=words[0], pos_mp=words[1], pos_fs=words[2], pos_ms=words[3]))


def choose_fitment(rng, index, domain_id, brand=None, models=None, displacement=None, cap=MAX_FITMENT):
    """Vehicles a part fits and the text naming them: one model (sometimes two of the same brand
    sharing the engine), one engine, and a year span when the whole range would be too many."""
    if brand is None:
        brand, model = rng.choice(index.models[domain_id])
        models = [model]
        engines = sorted({v.displacement for v in index.of_model(domain_id, brand, model)})
        displacement = rng.choice(engines)
        # A second model only when it shares an actual engine, not merely the displacement.
        engines = {v.engine for v in index.of_model(domain_id, brand, model, displacement)}
        siblings = [m for b, m in index.models[domain_id] if b == brand and m != model
                    and engines & {v.engine for v in index.of_model(domain_id, brand, m, displacement)}]
        if siblings and rng.random() < 0.25:
            models.append(rng.choice(siblings))
    fitment = [v for m in models for v in index.of_model(domain_id, brand, m, displacement)]
    if len(fitment) < 5:  # a rare engine: the part is sold for the whole model instead
        displacement = None
        fitment = [v for m in models for v in index.of_model(domain_id, brand, m)]
    years = ""
    if len(fitment) > cap:
        all_years = sorted({v.year for v in fitment})
        while len(fitment) > cap and len(all_years) > 1:
            all_years = all_years[1:] if rng.random() < 0.5 else all_years[:-1]
            fitment = [v for v in fitment if all_years[0] <= v.year <= all_years[-1]]
        years = f"{all_years[0]}-{all_years[-1]}" if all_years[0] != all_years[-1] else str(all_years[0])
    moto = domain_id.endswith("MOTORCYCLES")
    engine_text = "" if moto or displacement is None else displacement
    # "Mazda 3" is the model's whole name: do not write the brand twice.
    names = " ".join(m[len(brand) + 1:] if m.startswith(f"{brand} ") else m for m in models)
    text = _clean(f"{brand} {names} {engine_text} {years}")
    return fitment, text


def _price(rng, domain, site_id):
    low, high = PRICE_ARS[domain]
    value = rng.uniform(low, high) * PRICE_FACTOR[site_id]
    if site_id == "MLA":
        return float(round(value, -2))
    if site_id == "MLB":
        return round(int(value) + 0.9, 2)
    return float(round(value))


class PartListingFactory:
    def __init__(self, rng, index, item_ids):
        self.rng, self.index, self.item_ids = rng, index, item_ids
        self.titles = set()

    def make(self, seller_id, site_id, domain, category, fitment_args=None, title=None, position=CHOOSE,
             part_brand=None, status=None):
        """One listing; without a title one is written for a fitment chosen here (or by fitment_args)."""
        rng = self.rng
        lang = language(site_id)
        part_brand = part_brand or rng.choice(PART_BRANDS[domain][site_id])
        if position is CHOOSE:
            position = rng.choice(POSITION_CHOICES[domain]) if domain in POSITION_CHOICES else None
        fitment, candidate = [], title
        if fitment_args is not None or title is None:
            for _ in range(20):  # titles are unique, as one marketplace's listings nearly are
                fitment, vehicle_text = choose_fitment(rng, self.index, f"{site_id}-{category.vehicle}",
                                                       **(fitment_args or {}))
                candidate = title or _title(rng, domain, site_id, part_brand, vehicle_text, position)
                if candidate not in self.titles:
                    break
        self.titles.add(candidate)
        created = moment_between(rng, dt.datetime(2024, 2, 1), DEMO_NOW - dt.timedelta(days=45))
        names = ATTRIBUTE_NAMES[lang]
        attributes = [item_attribute("BRAND", names["BRAND"], part_brand),
                      item_attribute("PART_NUMBER", names["PART_NUMBER"],
                                     f"{re.sub('[^A-Z]', '', part_brand.upper())[:3]}{rng.randint(1000, 99999)}"),
                      item_attribute("ITEM_CONDITION", names["ITEM_CONDITION"], names["NEW"], NEW_CONDITION_ID, "list")]
        if position:
            value_id, position_names = POSITIONS[position]
            attributes.append(item_attribute("POSITION", names["POSITION"], position_names[lang], value_id, "list"))
        item = {"id": self.item_ids.next(site_id), "site_id": site_id, "title": candidate, "seller_id": seller_id,
                "category_id": category_id(site_id, category), "domain_id": f"{site_id}-{domain}",
                "status": status or rng.choices(["active", "paused", "closed"], [88, 8, 4])[0],
                "price": _price(rng, domain, site_id), "currency_id": CURRENCY_OF[site_id],
                "official_store_id": 2214 if seller_id == 2001 else None,
                "warranty": rng.choice(WARRANTIES[lang]), "catalog_product_id": None, "parent_item_id": None,
                "deal_ids": [], "automatic_relist": False, "catalog_listing": False,
                "health": round(rng.uniform(0.55, 1.0), 2), "date_created": iso(created),
                "last_updated": iso(moment_between(rng, created, DEMO_NOW - dt.timedelta(days=2))),
                "attributes": attributes}
        return PartListing(item, domain, category, position, fitment)


class ItemIds:
    def __init__(self):
        self.counters = {}

    def next(self, site_id):
        self.counters[site_id] = self.counters.get(site_id, 0) + 1
        return f"{site_id}{ITEM_ID_BASE + self.counters[site_id]}"


def _category(domain, site_id, vehicle="CARS_AND_VANS", number=None):
    return next(c for c in categories_of(domain, site_id)
                if c.vehicle == vehicle and (number is None or c.number == number))


def special_listings(factory):
    """Listings each demo scenario relies on, made first so that their ids are stable."""
    made = []
    # The one with more than 200 compatibilities: the marketplace loaded the whole 1.6 platform.
    plugs = factory.make(1001, "MLA", "SPARK_PLUGS", _category("SPARK_PLUGS", "MLA"),
                         {"brand": "Volkswagen", "models": ["Gol Trend", "Voyage", "Suran", "Fox", "Saveiro"],
                          "displacement": "1.6", "cap": 10_000},
                         title="Kit 4 bujías NGK Iridium Volkswagen Gol Trend Voyage Suran Fox Saveiro 1.6",
                         part_brand="NGK", status="active")
    plugs.catalog_source = True
    made.append(plugs)
    for seller, site, domain, brand in ((1001, "MLA", "CAR_FLOOR_MATS", "Lamarca"),
                                        (1002, "MLA", "WIPER_BLADES", "Bosch"),
                                        (2001, "MLB", "CAR_FLOOR_MATS", "Kacyumara")):
        title = localized(UNIVERSAL_TITLES[domain], site).format(pb=brand)
        universal_category = next(c for c in categories_of(domain, site) if c.universal)
        listing = factory.make(seller, site, domain, universal_category, title=title, part_brand=brand,
                               status="active", position=None)
        listing.universal = True
        made.append(listing)
    # A vehicle the catalog does not have yet: only an exception can be reported.
    amarok = factory.make(1001, "MLA", "BRAKE_PADS", _category("BRAKE_PADS", "MLA"),
                          title="Pastillas de freno delanteras Fras-le Volkswagen Amarok 3.0 V6 2025",
                          part_brand="Fras-le", position="FRONT", status="active")
    amarok.exception = "La Amarok 3.0 V6 2025 todavía no está en el catálogo de vehículos"
    made.append(amarok)
    # Exception reported, and later the compatibilities that did exist were loaded too.
    cronos = factory.make(1002, "MLA", "TIMING_BELTS", _category("TIMING_BELTS", "MLA"),
                          {"brand": "Fiat", "models": ["Cronos"], "displacement": "1.3"},
                          title="Kit de distribución Dayco Fiat Cronos 1.3", part_brand="Dayco", status="active")
    cronos.exception = "Falta la versión Cronos 1.3 GSE 2025 en el catálogo"
    made.append(cronos)
    return made


def part_listings(rng, index, item_ids):
    factory = PartListingFactory(rng, index, item_ids)
    listings = special_listings(factory)
    domains, weights = list(DOMAIN_WEIGHTS), list(DOMAIN_WEIGHTS.values())
    for seller_id in sellers_of("parts"):
        site_id = next(site for site in ("MLA", "MLB", "MLM") if seller_id in sellers_of("parts", site))
        already = sum(1 for listing in listings if listing.item["seller_id"] == seller_id)
        for _ in range(PART_ITEMS_PER_SELLER[seller_id] - already):
            domain = rng.choices(domains, weights)[0]
            vehicle = "MOTORCYCLES" if domain in MOTO_DOMAINS and site_id == "MLA" and rng.random() < 0.3 \
                else "CARS_AND_VANS"
            listings.append(factory.make(seller_id, site_id, domain, _category(domain, site_id, vehicle)))
    _leave_some_without_compatibilities(rng, listings)
    return listings


def _leave_some_without_compatibilities(rng, listings):
    """Sellers who never reported: harmless where optional, `incomplete_compatibilities` where mandatory."""
    for listing in listings:
        if not listing.category.required and listing.fitment and rng.random() < 0.12:
            listing.fitment = []
    for site_id, count in (("MLA", 6), ("MLB", 2), ("MLM", 2)):
        candidates = [listing for listing in listings
                      if listing.item["site_id"] == site_id and listing.item["status"] == "active"
                      and listing.category.required and not listing.universal and not listing.exception
                      and not listing.catalog_source and listing.fitment]
        for listing in rng.sample(candidates, count):
            listing.fitment = []


assert set(PART_DOMAINS) == set(DOMAIN_WEIGHTS) == set(TITLES)
