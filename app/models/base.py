"""The base model bound to the database proxy, and the field types shared by all areas."""
import datetime

from peewee import DateTimeField, JSONField, Model

from app.db import db


def utcnow():
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


class BaseModel(Model):
    class Meta:
        database = db
        legacy_table_names = False


__all__ = ["BaseModel", "JSONField", "DateTimeField", "utcnow"]
