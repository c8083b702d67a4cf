"""Hostile JSON bodies (issue 16, C): whatever the bytes, a JSON endpoint answers 400 with the error
object, never a 500; nesting past JSON_MAX_DEPTH is refused before json's parser recurses."""
import json
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.json_input import nested_deeper_than
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.helpers import assert_error, bearer, make_app

DEEP_ARRAY = b"[" * 1000 + b"]" * 1000  # 2 KB
DEEP_OBJECT = b'{"a":' * 1000 + b"1" + b"}" * 1000
# (method, path, needs a token): public ones, and token ones of every area that reads a body.
ENDPOINTS = [
    ("post", "/oauth/token", False),
    ("post", "/items/MLA100/check_compatibility", False),
    ("post", "/items/MLA100/compatibilities", True),
    ("put", "/items/MLA100/compatibilities", True),
    ("post", "/catalog_compatibilities/products_search/count_family_products", True),
    ("post", "/items/compatibilities_summary", True),
    ("post", "/catalog/charts", True),
]


@pytest.fixture
def loaded(load_bundle):
    load_bundle(base_bundle())


def send(client, method, path, body, token=True, content_type="application/json"):
    headers = bearer(TOKENS[SELLER]) if token else {}
    return getattr(client, method)(path, data=body, content_type=content_type, headers=headers)


def assert_invalid_json(response, *words):
    body = assert_error(response, 400, "invalid_json")
    assert body["cause"][0]["code"] == "invalid_json" and body["cause"][0]["field"] == "json", body
    for word in words:
        assert word in body["message"], body
    return body


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
@pytest.mark.parametrize("method, path, token", ENDPOINTS, ids=[f"{m} {p}" for m, p, _ in ENDPOINTS])
def test_json_nested_1000_levels_deep_is_a_400_not_a_recursion_error(client, loaded, caplog, method, path,
                                                                     token, body):
    with caplog.at_level(logging.ERROR):
        response = send(client, method, path, body, token)
    assert_invalid_json(response, "nested more than 64 levels")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_deep_json_is_refused_whatever_its_label(client, loaded, content_type):
    response = send(client, "post", "/oauth/token", DEEP_ARRAY, token=False, content_type=content_type)
    assert_invalid_json(response, "nested more than 64 levels")


def test_a_caller_without_a_token_is_refused_before_its_body_is_read(client, loaded):
    response = send(client, "post", "/items/MLA100/compatibilities", DEEP_ARRAY, token=False)
    assert response.status_code in (401, 403) and response.get_json()["error"] == "invalid_token"


def test_a_mebibyte_of_nesting_is_refused(client, loaded):
    response = send(client, "post", "/oauth/token", b"[" * (1024 * 1024), token=False)
    assert_invalid_json(response, "nested more than 64 levels")


def test_the_limit_is_json_max_depth_and_brackets_inside_strings_do_not_count(client, loaded):
    at_limit = b"[" * 63 + b'{"products": "' + b"[" * 500 + b'"}' + b"]" * 63
    response = send(client, "post", "/items/MLA100/compatibilities", at_limit)
    assert response.get_json()["cause"][0]["code"] != "invalid_json", response.get_json()
    assert_invalid_json(send(client, "post", "/items/MLA100/compatibilities", b"[" + at_limit + b"]"))


def test_the_limit_is_a_setting(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/limit.db", JSON_MAX_DEPTH=2)
    assert_invalid_json(app.test_client().post("/oauth/token", data=b'{"a": [[1]]}'), "more than 2 levels")


@pytest.mark.parametrize("body, words", [
    (b'{"grant_type": "\xff\xfe"}', ["not UTF-8", "byte 16"]),
    (b'\xef\xbb\xbf{"grant_type": "\xff"}', ["not UTF-8", "byte 19 (0xff)"]),
    (b'{"grant_type": ' + b"7" * 5000 + b"}", ["5000 digits"]),
    (b'{"grant_type": NaN}', ["NaN is not a JSON number"]),
    (b'{"grant_type": -Infinity}', ["-Infinity is not a JSON number"]),
    (b'{"grant_type": 1e400}', ["beyond what a double holds"]),
    (b'{"grant_type": "client_credentials"', ["truncated", "line 1, column 36"]),
    (b'{"grant_type": "a" "b"}', ["Expecting ',' delimiter", "line 1, column 20"]),
], ids=["not utf-8", "not utf-8 after a bom", "5000 digits", "NaN", "-Infinity", "1e400", "truncated", "syntax"])
def test_json_that_python_would_crash_on_or_misread_is_a_400_saying_why(client, loaded, body, words):
    assert_invalid_json(send(client, "post", "/oauth/token", body, token=False), *words)
    assert_invalid_json(send(client, "post", "/items/MLA100/compatibilities", body), *words)


def test_a_utf8_byte_order_mark_is_skipped_as_rfc_8259_allows(client, loaded):
    error = assert_error(send(client, "post", "/oauth/token", b'\xef\xbb\xbf{"grant_type": "x"}', token=False),
                         400, "unsupported_grant_type")
    assert "grant_type must be one of" in error["message"]


def _compatibilities(client):
    return client.get("/items/MLA100/compatibilities", query_string={"extended": "true"},
                      headers=bearer(TOKENS[SELLER])).get_json()


@pytest.mark.parametrize("note, what", [("Solo con ABS\\u0000", "NUL character"),
                                        ("Solo con ABS \\ud83d", "lone UTF-16 surrogate")])
def test_text_that_one_database_would_refuse_is_refused_naming_its_field(client, loaded, note, what):
    before = _compatibilities(client)
    body = ('{"products": [{"id": "MLA90001", "creation_source": "DEFAULT"}, {"id": "MLA90002", '
            f'"creation_source": "DEFAULT", "note": "{note}"}}]}}').encode()
    response = send(client, "post", "/items/MLA100/compatibilities", body)
    error = assert_error(response, 400, "invalid_characters")
    assert [c["field"] for c in error["cause"]] == ["products.1.note"], error
    assert what in error["message"] and "products.1.note" in error["message"]
    assert _compatibilities(client) == before


def test_a_surrogate_pair_is_one_character_and_is_stored(client, loaded):
    body = b'{"products": [{"id": "MLA90001", "creation_source": "DEFAULT", "note": "ABS \\ud83d\\ude97"}]}'
    assert send(client, "post", "/items/MLA100/compatibilities", body).status_code == 200
    assert _compatibilities(client)["products"][0]["note"] == "ABS \U0001F697"


def test_a_nul_in_a_key_is_named_printably(client, loaded):
    error = assert_error(send(client, "post", "/oauth/token", b'{"a\\u0000b": 1}', token=False), 400,
                         "invalid_characters")
    assert error["cause"][0]["field"] == "a\\u0000b"


JSONISH = st.text(alphabet='[]{}",:\\/u0123456789abcdefNaIinfty-+.eE \x00\ud800é', max_size=120)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=120), JSONISH.map(lambda t: t.encode("utf-8", "surrogatepass")),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                                   lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                                   max_leaves=30).map(lambda v: json.dumps(v).encode())))
def test_no_body_is_a_500(client, loaded, body):
    for method, path, token in ENDPOINTS[:3]:
        response = send(client, method, path, body, token)
        assert response.status_code < 500, (body, response.get_json())


@pytest.mark.parametrize("document, depth", [
    (rb'[["[[[\"[", {"a": []}]]', 4),          # brackets and an escaped quote inside a string
    (rb'["a\\", ["b"]]', 2),                    # an escaped backslash ends the string before the quote
    (rb'["", "[", "", "]]]"]', 1),              # empty strings beside strings of brackets
    (rb'{"k": "\u005b\"{"}', 1),                # escapes other than \\ and \"
    (b"[[]," * 100, 101),                       # no run of openers: summed
])
def test_nesting_is_counted_outside_strings(document, depth):
    assert not nested_deeper_than(document, depth) and nested_deeper_than(document, depth - 1)
