"""J1's JSON form read in one pass (app/services/bulk/json_form.py): the rows as json decodes them,
whatever the chunks cut; unknown top-level keys and malformed text refused, naming where."""
import io
import json

import pytest

from app.errors import ApiError
from app.services.bulk import json_form
from tests.bulk.conftest import AUTH, upload

ROWS = [{"item_id": "MLA100", "action": "ADD", "products": [{"id": "MLA90001", "note": "ñandú \"x\" \\u00e9"}]},
        {"item_id": "MLA101", "action": "DELETE", "universal": True, "n": 12345, "f": -1.5e3, "z": None}]


def read(text, chunk=None, monkeypatch=None):
    if chunk:
        monkeypatch.setattr(json_form, "CHUNK", chunk)
    return list(json_form.json_rows(io.BytesIO(text.encode() if isinstance(text, str) else text)))


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 64, None])
@pytest.mark.parametrize("text", [json.dumps({"rows": ROWS}), json.dumps({"rows": ROWS}, indent=3),
                                  '\ufeff { "rows" : [ ] }', '{"rows": [1, 22, 333]}'])
def test_the_rows_are_what_json_decodes_wherever_the_chunks_end(monkeypatch, chunk, text):
    assert read(text, chunk, monkeypatch) == json.loads(text.lstrip("\ufeff"))["rows"]


def test_two_rows_arrays_give_their_rows_in_order():
    assert read('{"rows": [1, 2], "rows": [3]}') == [1, 2, 3]


@pytest.mark.parametrize("text, field", [('{"is_admin": true, "rows": []}', "is_admin"),
                                         ('{"rows": [{"item_id": "MLA100"}], "extra": 1}', "extra")])
def test_an_unknown_top_level_key_is_refused_where_it_comes(text, field):
    with pytest.raises(ApiError) as caught:
        read(text)
    assert caught.value.error == "validation_error" and f"Unknown field {field}" in caught.value.message
    assert caught.value.cause == [{"code": "unknown_field", "message": "Unknown field.", "field": field}]


@pytest.mark.parametrize("text, where", [
    ('{"rows": [{"a": 1}, {"a": }]}', "row 2"),
    ('{"rows": [{"a": 1} {"a": 2}]}', "after row 1"),
    ('{"rows": [{"a": NaN}]}', "row 1"),
    ('{"rows": [{"a": "unterminated}]}', "row 1"),
    ('{"rows": [{"a": 1}]', "the body's object"),
    ('{"rows": [{"a": 1}]} []', "goes on after"),
    ('{rows: []}', "the body's object"),
    ('{"rows": {"a": 1}}', "rows"),
])
def test_malformed_text_is_an_invalid_json_naming_where(monkeypatch, text, where):
    for chunk in (3, None):
        with pytest.raises(ApiError) as caught:
            read(text, chunk, monkeypatch)
        assert caught.value.error == "invalid_json" and where in caught.value.message, caught.value.message


def test_bytes_that_are_not_utf8_are_an_invalid_json():
    with pytest.raises(ApiError) as caught:
        read(b'{"rows": [{"a": "\xff"}]}')
    assert caught.value.error == "invalid_json" and "UTF-8" in caught.value.message


def test_j1_refuses_an_unknown_key_after_the_rows_and_makes_no_job(client):
    response = upload(client, text=json.dumps({"rows": [{"item_id": "MLA100", "action": "ADD", "universal": True}],
                                               "seller_id": 7}))
    assert response.status_code == 400 and response.get_json()["error"] == "validation_error"
    assert response.get_json()["cause"][0]["field"] == "seller_id"
    listed = client.get("/compatibilities/bulk", headers=AUTH).get_json()
    assert listed["results"] == []
