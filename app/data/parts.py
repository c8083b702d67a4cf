"""Vehicle-part domains: their categories, the compatibility rules of endpoint 1, the POSITION values
of endpoint 7, and the words buyers use for them (domain discovery)."""
from dataclasses import dataclass

from app.data.sites import SITE_IDS, language, localized
from app.data.vehicle_tables import VEHICLE_TABLES


@dataclass(frozen=True)
class PartCategory:
    number: str
    names: dict
    vehicle: str = "CARS_AND_VANS"  # the vehicle domain this category's items fit
    required: bool = True
    notes: bool = True
    restrictions: bool = True
    universal: bool = False


# Value ids are shared by every site, as the marketplace's are; only the names are translated.
POSITIONS = {
    "FRONT": ("13701104", {"es": "Delantera", "pt": "Dianteira"}),
    "REAR": ("13701105", {"es": "Trasera", "pt": "Traseira"}),
    "LEFT": ("13701106", {"es": "Izquierda", "pt": "Esquerda"}),
    "RIGHT": ("13701107", {"es": "Derecha", "pt": "Direita"}),
}

# The rules differ on purpose, so that the demo shows every combination the API distinguishes:
# pads are mandatory with positions, plugs take no notes, mats and wipers may be universal.
PART_DOMAINS = {
    "BRAKE_PADS": {
        "names": {"es": "Pastillas de freno", "pt": "Pastilhas de freio", "MLM": "Balatas y pastillas de freno"},
        "positions": ("FRONT", "REAR"),
        "categories": [
            PartCategory("1747", {"es": "Pastillas de freno", "pt": "Pastilhas de freio", "MLM": "Balatas"}),
            PartCategory("86838", {"es": "Pastillas de freno para motos", "pt": "Pastilhas de freio para motos"},
                         vehicle="MOTORCYCLES", required=False)]},
    "BRAKE_DISCS": {
        "names": {"es": "Discos de freno", "pt": "Discos de freio"},
        "positions": ("FRONT", "REAR"),
        "categories": [PartCategory("6508", {"es": "Discos de freno", "pt": "Discos de freio"})]},
    "SHOCK_ABSORBERS": {
        "names": {"es": "Amortiguadores", "pt": "Amortecedores"},
        "positions": ("FRONT", "REAR", "LEFT", "RIGHT"),
        "categories": [
            PartCategory("6536", {"es": "Amortiguadores", "pt": "Amortecedores"}),
            PartCategory("417513", {"es": "Kits de amortiguadores", "pt": "Kits de amortecedores"},
                         required=False, restrictions=False)]},
    "SPARK_PLUGS": {
        "names": {"es": "Bujías", "pt": "Velas de ignição"},
        "categories": [
            PartCategory("6520", {"es": "Bujías", "pt": "Velas de ignição"}, notes=False, restrictions=False),
            PartCategory("86840", {"es": "Bujías para motos", "pt": "Velas para motos"}, vehicle="MOTORCYCLES",
                         required=False, notes=False, restrictions=False)]},
    "CAR_FLOOR_MATS": {
        "names": {"es": "Alfombras para autos", "pt": "Tapetes automotivos", "MLM": "Tapetes para autos",
                  "MLC": "Pisos de goma para autos", "MCO": "Tapetes para carros", "MPE": "Pisos para autos"},
        "categories": [
            PartCategory("8533", {"es": "Alfombras", "pt": "Tapetes", "MLM": "Tapetes", "MLC": "Pisos de goma",
                                  "MCO": "Tapetes", "MPE": "Pisos"},
                         required=False, notes=False, restrictions=False, universal=True),
            PartCategory("417600",
                         {"es": "Alfombras a medida", "pt": "Tapetes sob medida", "MLM": "Tapetes a la medida",
                                    "MCO": "Tapetes a la medida"}, required=False, restrictions=False)]},
    "AIR_FILTERS": {
        "names": {"es": "Filtros de aire", "pt": "Filtros de ar"},
        "categories": [
            PartCategory("6546", {"es": "Filtros de aire", "pt": "Filtros de ar"}, restrictions=False),
            PartCategory("86842", {"es": "Filtros de aire para motos", "pt": "Filtros de ar para motos"},
                         vehicle="MOTORCYCLES", required=False, restrictions=False)]},
    "HEADLIGHTS": {
        "names": {"es": "Ópticas delanteras", "pt": "Faróis", "MLM": "Faros delanteros", "MLC": "Focos delanteros",
                  "MCO": "Farolas", "MPE": "Faros delanteros"},
        "positions": ("LEFT", "RIGHT"),
        "categories": [PartCategory("6553", {"es": "Ópticas", "pt": "Faróis", "MLM": "Faros", "MLC": "Focos",
                                             "MCO": "Farolas", "MPE": "Faros"}, required=False)]},
    "WIPER_BLADES": {
        "names": {"es": "Escobillas limpiaparabrisas", "pt": "Palhetas de limpador de para-brisa",
                  "MLM": "Plumas limpiaparabrisas", "MLC": "Plumillas limpiaparabrisas",
                  "MCO": "Plumillas limpiabrisas",
                  "MPE": "Plumillas limpiaparabrisas"},
        "positions": ("FRONT", "REAR"),
        "categories": [PartCategory("6563", {"es": "Escobillas", "pt": "Palhetas", "MLM": "Plumas limpiaparabrisas",
                                             "MLC": "Plumillas", "MCO": "Plumillas", "MPE": "Plumillas"},
                                    required=False, universal=True)]},
    "TIMING_BELTS": {
        "names": {"es": "Correas de distribución", "pt": "Correias dentadas", "MLM": "Bandas de distribución",
                  "MCO": "Correas de repartición"},
        "categories": [PartCategory("6580", {"es": "Kits de distribución", "pt": "Kits de correia dentada",
                                             "MLM": "Kits de banda de distribución", "MCO": "Kits de repartición"},
                                    restrictions=False)]},
    "CAR_BATTERIES": {
        "names": {"es": "Baterías para autos", "pt": "Baterias automotivas", "MLM": "Acumuladores para autos"},
        # A car battery can be told to fit a motorcycle, but only as information: the pair is not EXTENSION.
        "informative": ("MOTORCYCLES",),
        "categories": [PartCategory("6590", {"es": "Baterías", "pt": "Baterias", "MLM": "Acumuladores"},
                                    required=False, restrictions=False)]},
}

DISCOVERY_TERMS = {
    "BRAKE_PADS": {"es": ["pastillas de freno", "pastilla de freno", "pastillas", "pastillas freno",
                          "juego de pastillas",
                          "pastillas delanteras", "pastillas traseras"],
                   "pt": ["pastilha de freio", "pastilhas de freio", "pastilha", "pastilhas", "jogo de pastilhas",
                          "pastilha dianteira"],
                   "MLM": ["balatas", "balata", "balatas delanteras", "balatas traseras", "pastillas de freno"]},
    "BRAKE_DISCS": {"es": ["discos de freno", "disco de freno", "discos", "par de discos", "rotores"],
                    "pt": ["disco de freio", "discos de freio", "par de discos", "disco ventilado"],
                    "MLM": ["discos de freno", "disco de freno", "rotores", "rotor de freno"]},
    "SHOCK_ABSORBERS": {"es": ["amortiguadores", "amortiguador", "kit amortiguadores", "amortiguador delantero"],
                        "pt": ["amortecedor", "amortecedores", "kit amortecedor", "par de amortecedores"]},
    "SPARK_PLUGS": {"es": ["bujías", "bujia", "bujías de encendido", "juego de bujías", "bujía iridium"],
                    "pt": ["vela de ignição", "velas de ignição", "vela", "jogo de velas", "velas iridium"]},
    "CAR_FLOOR_MATS": {"es": ["alfombras", "alfombra auto", "alfombras de goma", "cubre alfombras"],
                       "pt": ["tapete automotivo", "tapetes", "tapete de borracha", "jogo de tapetes"],
                       "MLM": ["tapetes", "tapete auto", "tapetes de hule", "alfombras"],
                       "MLC": ["pisos de goma", "pisos auto", "alfombras"],
                       "MCO": ["tapetes", "tapete carro", "tapetes de caucho"],
                       "MPE": ["pisos para auto", "pisos de jebe", "alfombras"]},
    "AIR_FILTERS": {"es": ["filtro de aire", "filtros de aire", "filtro aire motor"],
                    "pt": ["filtro de ar", "filtros de ar", "filtro do motor"]},
    "HEADLIGHTS": {"es": ["óptica", "ópticas", "faro delantero", "faros", "óptica delantera"],
                   "pt": ["farol", "faróis", "farol dianteiro", "farol de milha"],
                   "MLM": ["faro", "faros", "faro delantero", "unidad delantera"],
                   "MLC": ["foco", "focos delanteros", "foco delantero"],
                   "MCO": ["farola", "farolas", "farola delantera", "stop delantero"],
                   "MPE": ["faro", "faros delanteros", "faro delantero"]},
    "WIPER_BLADES": {"es": ["escobillas", "escobilla limpiaparabrisas", "limpiaparabrisas", "escobillas parabrisas"],
                     "pt": ["palheta", "palhetas", "limpador de para-brisa", "palheta limpador"],
                     "MLM": ["plumas limpiaparabrisas", "plumas", "limpiadores", "pluma limpiadora"],
                     "MLC": ["plumillas", "plumilla limpiaparabrisas", "limpiaparabrisas"],
                     "MCO": ["plumillas", "plumilla", "limpiabrisas"],
                     "MPE": ["plumillas", "plumilla", "limpiaparabrisas"]},
    "TIMING_BELTS": {"es": ["correa de distribución", "kit de distribución", "correa dentada", "kit distribución"],
                     "pt": ["correia dentada", "kit correia dentada", "kit de distribuição", "correia"],
                     "MLM": ["banda de distribución", "kit de distribución", "banda de tiempo"],
                     "MCO": ["correa de repartición", "kit de repartición", "correa de distribución"]},
    "CAR_BATTERIES": {"es": ["batería", "baterías", "batería auto", "batería 12v"],
                      "pt": ["bateria", "baterias", "bateria automotiva", "bateria 60ah"],
                      "MLM": ["acumulador", "acumuladores", "batería", "batería para auto"]},
}


def _vehicle_domains_of(site_id):
    return {suffix for (site, suffix) in VEHICLE_TABLES if site == site_id}


def categories_of(domain_name, site_id):
    """The domain's categories in a site: motorcycle categories only where motorcycles are catalogued."""
    vehicles = _vehicle_domains_of(site_id)
    return [c for c in PART_DOMAINS[domain_name]["categories"] if c.vehicle in vehicles]


def category_id(site_id, category):
    return f"{site_id}{category.number}"


def position_value(key, site_id):
    value_id, names = POSITIONS[key]
    return {"value_id": value_id, "value_name": names[language(site_id)]}


def _status(flag):
    return "ENABLED" if flag else "DISABLED"


def part_catalog():
    """domains, categories, domain_compatibilities entries, restriction_values and domain_discovery."""
    domains, categories, entries, restriction_values, discovery = [], [], [], [], []
    for site_id in SITE_IDS:
        vehicles = _vehicle_domains_of(site_id)
        for name, spec in PART_DOMAINS.items():
            domain_id = f"{site_id}-{name}"
            domains.append({"id": domain_id, "site_id": site_id, "name": localized(spec["names"], site_id)})
            site_categories = categories_of(name, site_id)
            for category in site_categories:
                categories.append({"id": category_id(site_id, category), "site_id": site_id,
                                   "name": localized(category.names, site_id), "domain_id": domain_id})
            pairs = []
            for vehicle in ("CARS_AND_VANS", "MOTORCYCLES"):
                if vehicle not in vehicles:
                    continue
                pair_categories = [c for c in site_categories if c.vehicle == vehicle]
                informative = vehicle in spec.get("informative", ())
                if not pair_categories and not informative:
                    continue
                vehicle_domain = f"{site_id}-{vehicle}"
                pairs.append({
                    "compatible_domain_id": vehicle_domain,
                    "type": "INFORMATIVE" if informative else "EXTENSION",
                    "required": any(c.required for c in pair_categories),
                    "restrictions": [],
                    "categories": [{"id": category_id(site_id, c), "required": c.required,
                                    "note_status": _status(c.notes),
                                    "restrictions_status": _status(c.restrictions),
                                    "universal_status": _status(c.universal)} for c in pair_categories]})
                if any(c.restrictions for c in pair_categories) and spec.get("positions"):
                    restriction_values.append({
                        "main_domain_id": vehicle_domain, "secondary_domain_id": domain_id,
                        "attributes_values": [{"attribute_id": "POSITION", "values": [
                            position_value(key, site_id) for key in spec["positions"]]}]})
            entries.append({"domain_id": domain_id, "main": False, "compatibilities": pairs})
            discovery.append({"site_id": site_id, "domain_id": domain_id,
                              "category_id": category_id(site_id, site_categories[0]),
                              "terms": localized(DISCOVERY_TERMS[name], site_id)})
    return domains, categories, entries, restriction_values, discovery
