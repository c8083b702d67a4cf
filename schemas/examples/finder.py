"""Vehicle finder examples (extensions.md F): answers of the demo, trimmed by `limit`."""


def _attribute(attribute_id, name, hierarchy, relevance=1):
    return {"id": attribute_id, "name": name, "value_type": "list", "hierarchy": hierarchy, "relevance": relevance}


def _values(*pairs):
    names = {"BRAND": "Marca", "MODEL": "Modelo", "VEHICLE_YEAR": "Año", "SHORT_VERSION": "Versión",
             "ENGINE": "Motor", "FUEL_TYPE": "Tipo de combustible"}
    return [{"id": a, "name": names[a], "values": [{"id": v_id, "name": v_name}]} for a, v_id, v_name in pairs]


def _renegade(year, version_id, version):
    return _values(("BRAND", "61537", "Jeep"), ("MODEL", "66350", "Renegade"), ("VEHICLE_YEAR", year, year),
                   ("SHORT_VERSION", version_id, version), ("ENGINE", "5815926", "1.8"),
                   ("FUEL_TYPE", "91291", "Nafta"))


# GET /catalog_domains/MLA-CARS_AND_VANS
DOMAIN = {"id": "MLA-CARS_AND_VANS", "name": "Autos y camionetas", "site_id": "MLA", "attributes": [
    _attribute("BRAND", "Marca", "PARENT_PK"), _attribute("MODEL", "Modelo", "PARENT_PK"),
    _attribute("VEHICLE_YEAR", "Año", "PARENT_PK"), _attribute("SHORT_VERSION", "Versión", "CHILD_PK"),
    _attribute("ENGINE", "Motor", "CHILD_PK"), _attribute("FUEL_TYPE", "Tipo de combustible", "CHILD_PK", 2)]}

# POST /catalog_domains/MLA-CARS_AND_VANS/attributes/MODEL/top_values: the models of Citroën
TOP_VALUES_REQUEST = {"known_attributes": [{"id": "BRAND", "value_id": "61828"}], "limit": 5}
TOP_VALUES = [{"id": "67052", "name": "C3", "metric": 44}, {"id": "62492", "name": "C4 Lounge", "metric": 44},
              {"id": "66092", "name": "Berlingo", "metric": 43}, {"id": "65212", "name": "C4 Cactus", "metric": 25}]

# POST /catalog_compatibilities/products_search/chunks: Jeep Renegade 2019-2020 by version
SEARCH_REQUEST = {"domain_id": "MLA-CARS_AND_VANS", "site_id": "MLA",
                  "known_attributes": [{"id": "BRAND", "value_ids": ["61537"]}, {"id": "MODEL", "value_ids": ["66350"]},
                                       {"id": "VEHICLE_YEAR", "value_ids": ["2019", "2020"]}],
                  "sort": {"attribute_id": "SHORT_VERSION", "order": "ASC"}, "limit": 2}
SEARCH = {"results": [
    {"id": "MLA15903639", "name": "Jeep Renegade 1.8 Longitude AT 2019", "parent_id": "MLA15903637",
     "attributes": _renegade("2019", "3933010", "1.8 Longitude AT")},
    {"id": "MLA15903643", "name": "Jeep Renegade 1.8 Longitude AT 2020", "parent_id": "MLA15903641",
     "attributes": _renegade("2020", "3933010", "1.8 Longitude AT")}],
    "paging": {"total": 6, "offset": 0, "limit": 2}}

# GET /products/MLA15903638
PRODUCT = {"id": "MLA15903638", "name": "Jeep Renegade 1.8 Sport 2019", "domain_id": "MLA-CARS_AND_VANS",
           "site_id": "MLA", "parent_id": "MLA15903637", "attributes": _renegade("2019", "1654747", "1.8 Sport")}
