"""Compatibility examples (endpoints 2, 8 to 10, 12 to 20): answers of the demo, seller 1001."""


def _renegade(**year):
    """A family's attributes: the Jeep Renegade of the years given (`value_name` or `value_ids`)."""
    return [{"id": "BRAND", "value_name": "Jeep"}, {"id": "MODEL", "value_name": "Renegade"},
            {"id": "VEHICLE_YEAR", **year}]


def _front_position():
    """The restrictions of the family in CREATE_FAMILIES_REQUEST: the front position only."""
    return [{"attribute_id": "POSITION",
             "attribute_values": [{"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}]


FAMILY_COUNT_REQUEST = {
    "domain_id": "MLA-CARS_AND_VANS",
    "attributes": _renegade(value_ids=["2019", "2020", "2021"]),
}

FAMILY_COUNT = {"count": 9}

# POST /items/MLA1500000016/compatibilities
CREATE_FAMILIES_REQUEST = {
    "products_families": [
        {
            "domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
            "attributes": _renegade(value_ids=["2019", "2020", "2021"]),
            "note": "Solo discos de 280 mm",
            "restrictions": _front_position(),
        },
    ],
}

CREATE_PRODUCTS_REQUEST = {
    "products": [
        {"id": "MLA15900002", "creation_source": "DEFAULT", "note": "Con filtro original de 180 mm"},
        {"id": "MLA15900003", "creation_source": "DEFAULT"},
    ],
}

CREATE_UNIVERSAL_REQUEST = {"universal": True}

COPY_REQUEST = {"item_to_copy": {"item_id": "MLA1500000016", "extended_information": True}}

CREATED = {"created_compatibilities_count": 9}

# The copy echoes what it created (two of thirteen shown).
COPIED = {
    "created_compatibilities_count": 13, "item_id": "MLA1500000016", "extended_information": True,
    "products": [
        {
            "id": "a6fda45c-e431-4cd0-9acb-1ea65987010a", "catalog_product_id": "MLA15903638",
            "domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
        },
        {
            "id": "bf4be8c3-4a0e-4410-8b2f-89f93933a699", "catalog_product_id": "MLA15903640",
            "domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT", "note": "Solo discos de 280 mm",
            "restrictions": [
                {
                    "attribute_id": "POSITION", "attribute_code": 4,
                    "attribute_values": [
                        {"values": [{"value_id": "13701104", "value_name": "Delantera", "value_code": 7}]},
                    ],
                },
            ],
        },
    ],
}

# GET /items/MLA1500000016/compatibilities?extended=true&limit=2 after CREATE_FAMILIES_REQUEST
LIST = {
    "products": [
        {
            "id": "174246a7-a88f-462a-81e4-e45dba34145b", "domain_id": "MLA-CARS_AND_VANS",
            "catalog_product_id": "MLA15903638", "catalog_product_name": "Jeep Renegade 1.8 Sport 2019",
            "source": "SELLER", "note": "Solo discos de 280 mm",
            "restrictions": _front_position(),
        },
        {
            "id": "eb527234-9a3b-40a6-a5c2-7735daa2b52f", "domain_id": "MLA-CARS_AND_VANS",
            "catalog_product_id": "MLA15903639", "catalog_product_name": "Jeep Renegade 1.8 Longitude AT 2019",
            "source": "SELLER", "note": "Solo discos de 280 mm",
            "restrictions": _front_position(),
        },
    ],
    "catalog_compatibilities_count": 0, "paging": {"total": 9, "offset": 0, "limit": 2},
}

LIST_UNIVERSAL = {
    "products": [], "catalog_compatibilities_count": 0,
    "universal": {"id": "ae8c3dc1-38d3-453f-9aa2-c0f4c1a29271", "domain_ids": ["MLA-CARS_AND_VANS"]},
}

PUT_REQUEST = {
    "update": {"products": [{"id": "MLA15903638", "note": "", "restrictions": []}]},
    "delete": {"products": [{"id": "MLA15903639"}]},
    "create": {
        "products_families": [
            {
                "domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
                "attributes": _renegade(value_name="2022"),
                "restrictions": [
                    {
                        "attribute_id": "POSITION",
                        "attribute_values": [{"values": [{"value_id": "13701105", "value_name": "Trasera"}]}],
                    },
                ],
            },
        ],
    },
}

PUT_ECHO = {
    "create": {
        "products_families": [
            {
                "domain_id": "MLA-CARS_AND_VANS", "creation_source": "DEFAULT",
                "attributes": _renegade(value_name="2022"),
                "restrictions": [
                    {
                        "attribute_id": "POSITION", "attribute_code": 3,
                        "attribute_values": [
                            {"values": [{"value_id": "13701105", "value_name": "Trasera", "value_code": 6}]},
                        ],
                    },
                ],
            },
        ],
        "universal": False,
    },
    "update": {"products": [{"id": "MLA15903638", "note": "", "restrictions": []}], "universal": False},
    "delete": {"products": [{"id": "MLA15903639"}], "universal": False},
}

DELETE_FAMILIES_REQUEST = {
    "products_families": [
        {
            "domain_id": "MLA-CARS_AND_VANS",
            "attributes": _renegade(value_name="2022"),
        },
    ],
}

DELETED = {
    "deleted_compatibilities": [
        "cb65c695-dc68-4fe0-b4f4-f29449bc93ef", "faa4113f-7d0f-4039-a5ad-616347f48a7e",
        "627f9b6f-5a3e-4d1d-a228-bf1eb66c5e42", "60c3016f-eb9c-48a6-84a2-e2b4c7feef55",
        "94ee7392-8a5c-4c6e-ae9c-b854fba5f227",
    ],
}

DELETED_ONE = {"deleted_compatibilities": ["019bdb46-aa00-7b91-ab04-0389151b6584"]}

EXTENDED_CHECK = {"note": "true", "restrictions": "true"}

EXCEPTION = {"has_exception": True}

# POST /items/MLA1500000014/compatibilities/exception
EXCEPTION_REQUEST = {"comment": "Falta el Volkswagen Saveiro 1.6 2024 en el catálogo"}

EXCEPTION_REPORTED = {
    "item_id": "MLA1500000014", "has_exception": True,
    "comment": "Falta el Volkswagen Saveiro 1.6 2024 en el catálogo",
}

# GET /items/MLA1500000011/compatibilities/019bdb46-aa00-7344-888f-f2c7f64491cc
DETAIL = {
    "id": "019bdb46-aa00-7344-888f-f2c7f64491cc", "domain_id": "MLA-CARS_AND_VANS",
    "catalog_product_id": "MLA15900676", "catalog_product_name": "Toyota Hilux 2.5 TDI DX 4x2 Cabina Doble 2011",
    "source": "SELLER", "note": "Vehículos fabricados desde marzo", "note_status": "PENDING",
}

NOTE = {"note": "Requiere adaptar el conector"}

# Named examples (OpenAPI `examples`) of the operations with several forms.
LIST_EXAMPLES = {
    "extended_paged": {"summary": "?extended=true&limit=2", "value": LIST},
    "universal": {"summary": "A universal item", "value": LIST_UNIVERSAL},
}
CREATE_REQUEST_EXAMPLES = {
    "families": {"summary": "A family with a note and a restriction", "value": CREATE_FAMILIES_REQUEST},
    "products": {"summary": "Products by id", "value": CREATE_PRODUCTS_REQUEST},
    "universal": {"summary": "Set the item universal", "value": CREATE_UNIVERSAL_REQUEST},
    "copy": {"summary": "Copy another item's compatibilities (endpoint 9)", "value": COPY_REQUEST},
}
CREATE_EXAMPLES = {
    "created": {"summary": "Products, families or universal", "value": CREATED},
    "copied": {"summary": "A copy echoes what it created", "value": COPIED},
}
