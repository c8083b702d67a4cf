"""The README's endpoint index and the registered routes name the same endpoints, views and services."""
import importlib
import inspect
import pathlib
import re

import pytest

from app import create_app

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
ROW = re.compile(r"^\| (?P<number>[^|]+) \| (?P<method>[A-Z]+) (?P<path>/\S*) "
                 r"\| (?P<view>[^|]+) \| (?P<services>[^|]+) \|$")
# flask-smorest's own routes (the OpenAPI document and the docs page), and Flask's static files.
UNINDEXED = {"static", "api-docs.openapi_json", "api-docs.openapi_swagger_ui"}


def index_rows():
    text = README.read_text()
    table = text[text.index("<!-- endpoint-index -->"):text.index("<!-- /endpoint-index -->")]
    rows = [ROW.match(line).groupdict() for line in table.splitlines() if ROW.match(line)]
    assert len(rows) > 30, "the endpoint index table was not found in README.md"
    return rows


@pytest.fixture(scope="module")
def routes(tmp_path_factory):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('index')}/index.db"})
    found = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint in UNINDEXED:
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        view_class = app.view_functions[rule.endpoint].view_class
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found[(method, path)] = view_class
    return found


def test_every_registered_route_is_in_the_index(routes):
    indexed = {(row["method"], row["path"]) for row in index_rows()}
    missing = sorted(f"{method} {path}" for method, path in routes if (method, path) not in indexed)
    assert missing == [], f"add these routes to README.md's endpoint index: {missing}"


def test_every_indexed_route_exists(routes):
    ghosts = sorted(f"{row['method']} {row['path']}" for row in index_rows()
                    if (row["method"], row["path"]) not in routes)
    assert ghosts == [], f"README.md's endpoint index names routes that are not registered: {ghosts}"


def test_indexed_views_and_services_are_the_ones_that_serve_the_route(routes):
    wrong = []
    for row in index_rows():
        view_class = routes.get((row["method"], row["path"]))
        module, class_name, method = row["view"].strip().split(".")
        if view_class is None or (view_class.__module__, view_class.__name__) != (f"app.api.{module}", class_name):
            wrong.append(f"{row['path']}: view {row['view'].strip()}")
            continue
        source = inspect.getsource(getattr(view_class, method))
        for service in filter(None, (s.strip() for s in row["services"].split(","))):
            if service == "—":
                continue
            package, function = service.split(".")
            exists = hasattr(importlib.import_module(f"app.services.{package}"), function)
            if not exists or f"{package}.{function}(" not in source:
                wrong.append(f"{row['method']} {row['path']}: {service} is not what {row['view'].strip()} calls")
    assert wrong == []


def test_numbered_endpoints_of_the_spec_are_all_indexed():
    numbers = set()
    for row in index_rows():
        numbers.update(int(n) for n in re.findall(r"\d+", row["number"]))
    assert numbers >= set(range(1, 28))
