"""The lookup every category prediction runs, prepared (app.db.prepared): compiled by peewee
once, not on each request."""
from app.db import execute_prepared
from app.models import CatalogVersion


def catalog_version():
    """The version the importer bumps when it writes titles, domains, categories or terms; None
    before the first import."""
    row = execute_prepared("catalog_version", lambda: CatalogVersion.select(CatalogVersion.version).where(
        CatalogVersion.id == 1), {}).fetchone()
    return row[0] if row else None
