"""The item passed by hand (DESIGN.md 13): a route's guard reads the item with the token and hands
the row to the view, which passes it on to its service; no service reads it again, and no context
variable carries it between the layers."""
import ast
import pathlib
import re

import pytest

import app as app_package
from tests.compat.compat_data import SELLER_H, compat, full_bundle, url
from tests.helpers import recorded_statements

ROOT = pathlib.Path(app_package.__file__).resolve().parent.parent

IDS = {n: f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 4)}
# A statement that reads the item table (the token check joins it; a re-read selects from it).
READS_ITEM = re.compile(r'\b(FROM|JOIN) "item"')


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle(compatibilities=[
        compat("MLA100", "MLA90001", id=IDS[1], note="N", note_status="APPROVED"),
        compat("MLA100", "MLA90002", id=IDS[2]),
        compat("MLA100", "MLA90003", id=IDS[3])]))


def item_reads(client, method, path, **kwargs):
    with recorded_statements() as seen:
        response = getattr(client, method)(path, headers=SELLER_H, **kwargs)
    assert response.status_code == 200, response.get_json()
    return [sql for sql in seen if sql.lstrip().upper().startswith("SELECT") and READS_ITEM.search(sql)]


@pytest.mark.parametrize("path", [
    url(suffix=f"/{IDS[1]}"),  # 13
    url(suffix="/extended/check"),  # 14
    url(suffix=f"/{IDS[1]}/note"),  # 15
    url(),  # 12
    url(suffix="/exception"),  # 20
    url(suffix="/history"),  # H1
    "/items/MLA100",  # 3
])
def test_a_read_of_an_item_reads_it_once_with_the_token(client, path):
    reads = item_reads(client, "get", path)
    assert len(reads) == 1 and '"access_token"' in reads[0], reads


@pytest.mark.parametrize("method, path", [
    ("delete", url(suffix=f"/{IDS[2]}")),  # 16
    ("delete", url()),  # 17
])
def test_a_write_reads_the_item_again_only_to_lock_it(client, method, path):
    token_read, locked = item_reads(client, method, path)
    assert '"access_token"' in token_read and '"access_token"' not in locked
    assert re.search(r'FROM "item" AS "t1" WHERE \("t1"."id" = (\?|%s)\)( FOR UPDATE)?$', locked), locked


def context_variables():
    """(module, name) of every ContextVar app/ creates, and of every import of contextvars."""
    for path in sorted((ROOT / "app").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(), where)):
            if isinstance(node, ast.Call):
                called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if called == "ContextVar":
                    yield where, ast.literal_eval(node.args[0]) if node.args else None
            elif isinstance(node, ast.Import) and any(alias.name == "contextvars" for alias in node.names):
                yield where, "import contextvars"
            elif isinstance(node, ast.ImportFrom) and node.module == "contextvars":
                yield where, "from contextvars import"


def test_no_context_variable_carries_the_item():
    # The one context variable is the scope of a compatibility write (its actor, request id and
    # If-Match check): the item's row goes from the guard to the view and on as an argument.
    scope = "app/services/history/scope.py"
    assert sorted(context_variables()) == [(scope, "compatibility_change_scope"), (scope, "from contextvars import")]
