"""Every error a view can answer is declared by that view (`@blp.errors`, `auth`, `arguments`),
and only those: what it can raise comes from tests/http/raisable.py (a static walk over app/), what
it declares from the OpenAPI document, whose error responses are generated from the declarations.
"""
import ast

import pytest
from flask_smorest.spec.plugins import FlaskPlugin

from app.errors import STATUS
from tests.http.raisable import ROOT, methods, module, raisable, summary

# Declared by `arguments` (validation_error; invalid_json for a body) and `auth` (invalid_token), or
# answered by the error
# handlers for a database failure (service_unavailable, declared by /health): not raised by the
# app code a view runs, so never a declaration too many.
FRAMEWORK_CODES = {"validation_error", "invalid_json", "invalid_token", "service_unavailable"}


def test_a_view_with_a_body_declares_invalid_json_and_one_without_does_not(spec):
    assert (400, "invalid_json") in declared(spec["paths"]["/items/{item_id}/compatibilities"]["post"])
    assert (400, "invalid_json") in declared(spec["paths"]["/oauth/token"]["post"])
    assert (400, "invalid_json") not in declared(spec["paths"]["/items/{item_id}/compatibilities"]["get"])


def api_views(app, spec):
    """(label, view function, OpenAPI operation) of every operation of the API's blueprints."""
    for rule in app.url_map.iter_rules():
        view_class = getattr(app.view_functions[rule.endpoint], "view_class", None)
        if view_class is None:
            continue
        path = FlaskPlugin.flaskpath2openapi(rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            view = getattr(view_class, method.lower())
            label = f"{view_class.__name__}.{method.lower()} ({method} {path})"
            yield label, view, spec["paths"][path][method.lower()]


def declared(operation):
    return {(int(status), code) for status, response in operation["responses"].items()
            for code in response.get("x-error-codes", ())}


@pytest.fixture
def spec(client):
    return client.get("/openapi.json").get_json()


def test_every_error_a_view_can_raise_is_declared_by_it(app, spec):
    missing, unknown = [], []
    for label, view, operation in api_views(app, spec):
        found, cannot_tell = raisable(view)
        unknown += [f"{label}: {u}" for u in cannot_tell]
        missing += [f"{label} can answer {status} `{code}` ({where}) but does not declare it"
                    for (status, code), where in sorted(found.items()) if (status, code) not in declared(operation)]
    assert not unknown, "ApiErrors whose status or code the test cannot tell (use literals, or a helper " \
                        "that takes them as arguments):\n" + "\n".join(sorted(unknown))
    assert not missing, "undeclared errors (add them to the view's @blp.errors):\n" + "\n".join(missing)


def test_no_view_declares_an_error_it_cannot_answer(app, spec):
    stale = []
    for label, view, operation in api_views(app, spec):
        found, _ = raisable(view)
        stale += [f"{label} declares {status} `{code}`, which nothing it runs raises"
                  for status, code in sorted(declared(operation) - set(found)) if code not in FRAMEWORK_CODES]
    assert not stale, "declarations to remove:\n" + "\n".join(stale)


def test_every_raised_code_answers_the_status_app_errors_gives_it():
    wrong = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        mod = module(name)
        scopes = [(mod, node) for node in mod.defs.values() if isinstance(node, ast.FunctionDef)]
        scopes += [m for node in mod.defs.values() if isinstance(node, ast.ClassDef) for m in methods(mod, node)]
        for scope in scopes:
            for raised in summary(*scope).raises:
                if raised.status.kind == raised.code.kind == "literal" and raised.code.value != "invalid_token" \
                        and STATUS.get(raised.code.value) != raised.status.value:
                    wrong.append(f"{raised.where}: {raised.status.value} `{raised.code.value}`, app.errors.CODES "
                                 f"says {STATUS.get(raised.code.value)}")
    assert not wrong, "raises that disagree with app.errors.CODES:\n" + "\n".join(sorted(set(wrong)))
