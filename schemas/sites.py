"""Currencies and sites: the common resources."""
import marshmallow as ma
from marshmallow import fields

from schemas.common import Answer


class CurrencySchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "ISO 4217 code", "example": "ARS"})
    description = fields.String(metadata={"description": "Name of the currency", "example": "Peso argentino"})
    symbol = fields.String(metadata={"description": "Symbol shown before amounts", "example": "$"})
    decimal_places = fields.Integer(metadata={"description": "Decimal places of amounts", "example": 2})


class SiteSchema(Answer, ma.Schema):
    id = fields.String(metadata={"description": "Site identifier", "example": "MLA"})
    name = fields.String(metadata={"description": "Country name of the site", "example": "Argentina"})
    default_currency_id = fields.String(metadata={"description": "Currency of the site's prices"})
    language = fields.String(metadata={"description": "Language of the site's texts", "example": "es"})
