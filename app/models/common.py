"""Sites and currencies: the common resources every other area points to."""
from peewee import CharField, IntegerField

from app.models.base import BaseModel


class Currency(BaseModel):
    id = CharField(primary_key=True, max_length=3)
    description = CharField(max_length=100)
    symbol = CharField(max_length=10)
    decimal_places = IntegerField()


class Site(BaseModel):
    id = CharField(primary_key=True, max_length=3)
    name = CharField(max_length=100)
    default_currency_id = CharField(max_length=3)
    language = CharField(max_length=5, default="es")
