"""The vehicle domains and their catalog products (parents per brand+model+year, children per version)."""
import re
from dataclasses import dataclass

from app.data.sites import FUEL_NAMES, VEHICLE_ATTRIBUTE_NAMES, language, localized
from app.data.vehicle_tables import VEHICLE_TABLES

FIRST_YEAR, LAST_YEAR = 2008, 2024
PRODUCT_ID_BASE = 15900000

VEHICLE_DOMAIN_NAMES = {
    "CARS_AND_VANS": {"es": "Autos y camionetas", "pt": "Carros e caminhonetes", "MCO": "Carros y camionetas"},
    "MOTORCYCLES": {"es": "Motos", "pt": "Motos"},
}
# Real marketplace category numbers of the vehicle listings themselves.
VEHICLE_CATEGORIES = {
    "CARS_AND_VANS": ("1744",
                      {"es": "Autos y Camionetas", "pt": "Carros e Caminhonetes", "MCO": "Carros y Camionetas"}),
    "MOTORCYCLES": ("1763", {"es": "Motos", "pt": "Motos"}),
}
VEHICLE_ATTRIBUTES = ("BRAND", "MODEL", "VEHICLE_YEAR", "SHORT_VERSION", "ENGINE", "FUEL_TYPE")
# How the finder describes each (extensions.md F): brand, model and year identify the parent vehicle;
# version and engine refine it and are primary too; fuel is a secondary filter.
VEHICLE_ATTRIBUTE_ROLES = {
    "BRAND": ("PARENT_PK", 1), "MODEL": ("PARENT_PK", 1), "VEHICLE_YEAR": ("PARENT_PK", 1),
    "SHORT_VERSION": ("CHILD_PK", 1), "ENGINE": ("CHILD_PK", 1), "FUEL_TYPE": ("CHILD_PK", 2),
}

# Words of a version label that belong to the engine rather than to the trim.
ENGINE_TECH = {"TDI", "TSI", "MSI", "Msi", "MPI", "HDi", "THP", "dCi", "TDCi", "CRDi", "CTDI", "VCDi", "TD", "SD",
               "Turbo", "Ecoboost", "T200", "T270", "Firefly", "Fire", "JTD", "Multijet", "VVT-i", "V6", "V8",
               "TCe", "VTi", "Hybrid", "Diésel", "T", "T-Jet", "Flex", "Nafta"}
DIESEL_MARKERS = {"TDI", "TD", "TDCi", "HDi", "dCi", "CRDi", "CTDI", "VCDi", "SD", "JTD", "Multijet", "Diésel"}
DISPLACEMENT = re.compile(r"^\d\.\d{1,2}$")


@dataclass(frozen=True)
class Vehicle:
    """A child product, kept beside its JSON so that items can pick what they fit."""
    id: str
    site_id: str
    domain_id: str
    brand: str
    model: str
    year: int
    version: str
    engine: str
    displacement: str
    attributes: tuple  # the product's attribute dicts, in VEHICLE_ATTRIBUTES order


def engine_of(version: str) -> str:
    words = version.split()
    if not words or not DISPLACEMENT.match(words[0]):
        return version
    engine = [words[0]]
    for word in words[1:3]:
        if word not in ENGINE_TECH:
            break
        engine.append("MSI" if word == "Msi" else word)
    # "Nafta"/"Flex" name the fuel, not the engine: keep the displacement alone.
    return " ".join(w for w in engine if w not in ("Nafta", "Flex", "Diésel"))


def fuel_of(version: str, site_id: str) -> str:
    words = set(version.replace("-", " ").split()) | set(version.split())
    names = localized(FUEL_NAMES, site_id)
    if words & DIESEL_MARKERS:
        return names["diesel"]
    if "Hybrid" in words:
        return names["hybrid"]
    return names["gasoline"]


def vehicle_domains():
    domains, categories, main_entries = [], [], []
    for (site_id, suffix) in VEHICLE_TABLES:
        domain_id = f"{site_id}-{suffix}"
        names = VEHICLE_ATTRIBUTE_NAMES[language(site_id)]
        domains.append({"id": domain_id, "site_id": site_id, "name": localized(VEHICLE_DOMAIN_NAMES[suffix], site_id),
                        "attributes": [{"id": attr, "name": names[attr], "value_type": "list",
                                        "hierarchy": VEHICLE_ATTRIBUTE_ROLES[attr][0],
                                        "relevance": VEHICLE_ATTRIBUTE_ROLES[attr][1]}
                                       for attr in VEHICLE_ATTRIBUTES]})
        number, category_names = VEHICLE_CATEGORIES[suffix]
        categories.append({"id": f"{site_id}{number}", "site_id": site_id,
                           "name": localized(category_names, site_id), "domain_id": domain_id})
        main_entries.append({"domain_id": domain_id, "main": True, "compatibilities": []})
    return domains, categories, main_entries


def _versions_by_year(spec):
    first, last, versions = spec[0], spec[1], spec[2]
    for year in range(max(first, FIRST_YEAR), min(last, LAST_YEAR) + 1):
        labels = []
        for version in versions:
            label, start, end = (version, first, last) if isinstance(version, str) else version
            if start <= year <= end and label not in labels:
                labels.append(label)
        if labels:
            yield year, labels


def _value(value_ids, attribute, name):
    return {"id": attribute, "value_id": value_ids.get(attribute, name), "value_name": name}


class _Catalog:
    """Products of every site, numbered in one sequence per site (MLA15900001, MLA15900002, ...)."""

    def __init__(self, value_ids):
        self.value_ids = value_ids
        self.products, self.vehicles = [], []
        self.last_number = {}

    def _next_id(self, site_id):
        self.last_number[site_id] = self.last_number.get(site_id, PRODUCT_ID_BASE) + 1
        return f"{site_id}{self.last_number[site_id]}"

    def add_model(self, site_id, domain_id, brand, model, spec):
        model_engine = spec[3] if len(spec) > 3 else None
        for year, labels in _versions_by_year(spec):
            parent_id = self._next_id(site_id)
            base = [_value(self.value_ids, "BRAND", brand), _value(self.value_ids, "MODEL", model),
                    {"id": "VEHICLE_YEAR", "value_id": str(year), "value_name": str(year)}]
            self.products.append({"id": parent_id, "domain_id": domain_id, "site_id": site_id,
                                  "name": f"{brand} {model} {year}", "attributes": base})
            for label in labels:
                engine = model_engine or engine_of(label)
                fuel = localized(FUEL_NAMES, site_id)["gasoline"] if model_engine else fuel_of(label, site_id)
                attributes = base + [_value(self.value_ids, "SHORT_VERSION", label),
                                     _value(self.value_ids, "ENGINE", engine),
                                     _value(self.value_ids, "FUEL_TYPE", fuel)]
                product = {"id": self._next_id(site_id), "domain_id": domain_id, "site_id": site_id,
                           "name": f"{brand} {model} {label} {year}", "parent_id": parent_id,
                           "attributes": attributes}
                self.products.append(product)
                self.vehicles.append(Vehicle(product["id"], site_id, domain_id, brand, model, year, label,
                                             engine, engine.split()[0], tuple(attributes)))


def vehicle_products(value_ids):
    """All vehicle products of every site, and the children as Vehicle records."""
    catalog = _Catalog(value_ids)
    for (site_id, suffix), table in VEHICLE_TABLES.items():
        for brand, models in table.items():
            for model, spec in models.items():
                catalog.add_model(site_id, f"{site_id}-{suffix}", brand, model, spec)
    return catalog.products, catalog.vehicles
