"""Creating the schema: every table, and the full-text index of the database in use."""
from app.db import db
from app.models import ALL_MODELS


def create_schema():
    with db.atomic():
        db.create_tables(ALL_MODELS, safe=True)
