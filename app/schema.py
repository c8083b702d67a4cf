"""Creating the schema: every table, and the full-text index of the database in use."""
from app.db import db
from app.models import ALL_MODELS
from app.services.search_index import ensure_search_index


def create_schema():
    with db.atomic():
        db.create_tables(ALL_MODELS, safe=True)
        ensure_search_index()
