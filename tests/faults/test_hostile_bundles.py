"""Hostile bundles (issue 16, C): `catalog import` lists every problem with its JSON path and exits 1,
without a traceback, writing nothing; what SQLite would store and PostgreSQL refuse is refused on both."""
import copy
import json
import os
import random
import subprocess
import sys

import pytest

from app.services.bundle import BundleError, export_bundle, import_bundle
from tests.bundle_data import full_bundle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIG = 2 ** 63


def revised():
    """The stored bundle with every product and item renamed: a partial write would show in the export."""
    bundle = full_bundle()
    for record in bundle["products"]:
        record["name"] += " (v2)"
    for record in bundle["items"]:
        record["title"] += " (v2)"
    return bundle


def changed(*edits):
    """revised() as JSON bytes after `edits`, each (path, value) with the path as a tuple."""
    bundle = revised()
    for path, value in edits:
        node = bundle
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return json.dumps(bundle).encode()


WHOLE = json.dumps(full_bundle()).encode()
# name: (the file's bytes, problems expected in the output, each a JSON path and its message's start)
CASES = {
    "random bytes": (b"\x89PNG" + random.Random(16).randbytes(4000), ["$: not UTF-8 text: byte 0 (0x89)"]),
    "truncated": (WHOLE[:len(WHOLE) // 2], ["$: the JSON document ends inside the string that starts at line 1"]),
    "truncated between values": (WHOLE[:WHOLE.index(b", ", len(WHOLE) // 2)],
                                 ["$: the JSON document ends before it is complete"]),
    "deep nesting": (b'{"products": ' + b"[" * 1000 + b"]" * 1000 + b"}",
                     ["$: arrays and objects are nested more than 64 levels deep"]),
    "top-level array": (b'[{"sites": []}]', ["$: a bundle is a JSON object whose keys are section names"]),
    "empty file": (b"", ["$: the JSON document ends before it is complete"]),
    "5000-digit id": (WHOLE.replace(b'"id": 1001', b'"id": ' + b"9" * 5000, 1),
                      ["$: not valid JSON: a number has 5000 digits"]),
    "NaN": (WHOLE.replace(b'"price": 1000.0', b'"price": NaN', 1), ["$: not valid JSON: NaN is not a JSON number"]),
    "NUL in several places": (changed(
        (("sites", 0, "name"), "Argen\x00tina"),
        (("products", 3, "attributes", 1, "value_name"), "Go\x00l"),
        (("charts", 0, "names", "MLA"), "\x00"),
        (("technical_specs", 0, "input", "groups"), [{"id": "G\x00"}]),
        (("users", 0, "access_tokens"), ["TEST-1001-\x00"])), [
        "sites[0].name: the text contains a NUL character (\\u0000), which PostgreSQL cannot store",
        "products[3].attributes[1].value_name: the text contains a NUL character",
        "charts[0].names.MLA: the text contains a NUL character",
        "technical_specs[0].input.groups[0].id: the text contains a NUL character",
        "users[0].access_tokens[0]: the text contains a NUL character"]),
    "NUL in a key": (changed((("charts", 0, "names"), {"M\x00LA": "x"})),
                     ["charts[0].names.M\\u0000LA: the key contains a NUL character"]),
    "lone surrogate": (changed((("items", 0, "title"), "Pastillas \ud83d"),
                               (("compatibilities", 0, "note"), "ABS \udc00"),
                               (("products", 3, "attributes", 1, "value_name"), "Go\ud800l")), [
        "items[0].title: the text contains a lone UTF-16 surrogate",
        "compatibilities[0].note: the text contains a lone UTF-16 surrogate",
        "products[3].attributes[1].value_name: the text contains a lone UTF-16 surrogate"]),
    "ids of 2**63": (changed((("users", 0, "id"), BIG), (("orders", 0, "id"), BIG), (("claims", 0, "order_id"), BIG),
                             (("items", 0, "seller_id"), BIG)), [
        f"users[0].id: {BIG} does not fit a 64-bit integer", f"orders[0].id: {BIG} does not fit",
        f"claims[0].order_id: {BIG} does not fit", f"items[0].seller_id: {BIG} does not fit"]),
    "ids below -2**63": (changed((("orders", 0, "buyer_id"), -BIG - 1)),
                         [f"orders[0].buyer_id: {-BIG - 1} does not fit"]),
    "negative ids": (changed((("users", 0, "id"), -1001), (("claims", 0, "id"), 0), (("charts", 0, "seller_id"), -1)), [
        "users[0].id: must be a positive 64-bit integer (1 to 9223372036854775807), not -1001",
        "claims[0].id: must be a positive 64-bit integer", "charts[0].seller_id: must be a positive 64-bit"]),
    "wrong types": (changed((("sites",), {"id": "MLA"}), (("products", 0), "MLA9"), (("products", 1, "attributes"), 5),
                            (("items", 0, "price"), "barato"), (("charts", 0, "rows", 0, "attributes"), {"a": 1}),
                            (("orders", 0, "snapshot", "compatibility_status"), [])), [
        "sites: must be a list of records", "products[0]: invalid input type",
        "products[1].attributes: not a valid list",
        "items[0].price: not a valid number", "charts[0].rows[0].attributes: not a valid list",
        "orders[0].snapshot.compatibility_status: invalid input type"]),
}


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args, **kwargs: runner.invoke(args=list(args), **kwargs)


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_bundle_is_refused_with_json_paths_and_writes_nothing(cli, load_bundle, run_db, tmp_path, name,
                                                                      database_url):
    load_bundle(full_bundle())
    before = run_db(export_bundle)
    data, expected = CASES[name]
    path = tmp_path / "bundle.json"
    path.write_bytes(data)
    result = cli("catalog", "import", str(path))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (result.exception, result.output)
    assert "Traceback" not in result.output
    database, *lines = result.stderr.splitlines()
    assert database == f"database: {database_url}"
    for problem in expected:
        assert any(line.startswith(problem) for line in lines), (problem, result.stderr)
    assert lines[-1] == f"{len(lines) - 1} problem(s): nothing was imported"
    assert run_db(export_bundle) == before


def test_the_real_command_prints_problems_not_a_traceback(tmp_path, database_url):
    """As operators run it: its own process, random bytes on standard input."""
    env = {**os.environ, "DATABASE_URL": database_url}
    result = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "catalog", "import", "-"], cwd=ROOT,
                            env=env, input=CASES["random bytes"][0], capture_output=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == [
        f"database: {database_url}",
        "$: not UTF-8 text: byte 0 (0x89) cannot be decoded; send a JSON document encoded as UTF-8",
        "1 problem(s): nothing was imported"]


def _mutations(seed, count):
    """`count` copies of the full bundle, each with one value somewhere replaced by one of another type."""
    bundle = full_bundle()
    paths, stack = [], [(bundle, ())]
    while stack:
        node, path = stack.pop()
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            paths.append((*path, key))
            stack.append((child, (*path, key)))
    values = [None, True, 1.5, -1, 0, BIG, "x", "", [], {}, [[]], {"": None}, ["x"], {"id": []}, "\x00"]
    rng = random.Random(seed)
    for _ in range(count):
        path, value = rng.choice(paths), rng.choice(values)
        mutated = copy.deepcopy(bundle)
        node = mutated
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = copy.deepcopy(value)
        yield path, value, mutated


def test_a_value_of_any_type_anywhere_is_a_problem_or_imports_never_an_exception(run_db):
    crashes = []
    for path, value, bundle in _mutations(seed=16, count=120):
        try:
            run_db(import_bundle, bundle)
        except BundleError:
            pass
        except Exception as exc:  # noqa: BLE001 - the finding is any other exception
            crashes.append(f"{path} = {value!r}: {type(exc).__name__}: {exc}")
    assert crashes == []
