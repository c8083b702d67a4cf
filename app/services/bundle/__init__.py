"""The catalog bundle (import-format.md): `import_bundle` validates a whole bundle, then writes
it in one transaction; `export_bundle` writes the database back in the same format."""
from app.services.bundle.pipeline import import_bundle
from app.services.bundle.sections import SECTIONS
from app.services.bundle.validate import BundleError, read_bundle

__all__ = ["BundleError", "import_bundle", "export_bundle", "read_bundle"]


def export_bundle():
    """Every section of the database, in import-format.md's shape, in a stable order."""
    return {section.name: section.export() for section in SECTIONS}
