"""The plain-Python check of a row answers as the row schema's load would, wherever it answers."""
import pytest

from schemas.bulk import BulkRowSchema, plainly_valid

ROWS = [
    {"item_id": "MLA1", "action": "ADD", "products": [{"id": "MLA2"}]},
    {"item_id": "MLA1", "action": "ADD", "note": "y", "creation_source": "AUTOMATION",
     "products": [{"id": "MLA2", "note": "x", "creation_source": "DEFAULT"}]},
    {"item_id": "MLA1", "action": "REPLACE"},
    {"item_id": "MLA1", "action": "DELETE", "products": [{"id": "MLA2"}]},
    {"item_id": "MLA1", "action": "ADD", "products": [{"id": "MLA2", "creation_source": "default"}]},
    {"item_id": "MLA1", "action": "ADD", "products": [{"id": "MLA2", "note": "x" * 501}]},
    {"item_id": "MLA1x", "action": "ADD"},
    {"item_id": "MLA1", "action": "ADD", "products": {"id": "MLA2"}},
    {"item_id": "MLA1", "action": "ADD", "products": [{"id": "MLA2", "zzz": 1}]},
    {"item_id": "MLA1", "action": "ADD", "products": [{"id": 5}]},
    {"item_id": "MLA1", "action": "ADD", "universal": True},
    ["MLA1"],
]


@pytest.mark.parametrize("row", ROWS)
def test_a_row_the_check_passes_is_one_the_schema_loads_unchanged(row):
    if plainly_valid(row):
        assert BulkRowSchema().load(row) == row


def test_the_rows_of_large_uploads_pass_the_check():
    assert [plainly_valid(row) for row in ROWS[:3]] == [True, True, True]
