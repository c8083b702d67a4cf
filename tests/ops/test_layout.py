"""The code's structure: layers only call down, no import cycle, small modules."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
MAX_LINES = 400
# Each layer, and the modules it must never import (a prefix names a package and its modules).
FORBIDDEN = {
    "app.services": ("flask", "werkzeug", "app.api", "app.http", "app.cli", "app.migrations", "app.__init__"),
    "app.models": ("flask", "app.services", "app.api", "app.http", "app.cli"),
    "app.errors": ("flask", "app.services", "app.api", "app.http"),
    "schemas": ("app",),
}


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules():
    for top in ("app", "schemas"):
        for path in sorted((ROOT / top).rglob("*.py")):
            yield module_name(path), path


def imports_of(name, path):
    """Every module `name` imports: `from a.b import c` names a.b.c when that is a module, else a.b."""
    known = {module for module, _ in modules()}
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if candidate in known else node.module)
            if node.module == "app":
                found.add("app.__init__")
    return found


def test_layers_only_import_downwards():
    wrong = []
    for name, path in modules():
        for layer, forbidden in FORBIDDEN.items():
            if name == layer or name.startswith(layer + "."):
                wrong += [f"{name} imports {imported}" for imported in sorted(imports_of(name, path))
                          if any(imported == f or imported.startswith(f + ".") for f in forbidden)]
    assert wrong == []


def test_no_import_cycle():
    graph = {name: {i for i in imports_of(name, path) if i.startswith(("app.", "schemas"))}
             for name, path in modules()}
    cycles, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_no_module_above_the_size_limit_outside_the_demo_data():
    large = [f"{path.relative_to(ROOT)}: {n} lines" for _, path in modules()
             if "app/data/" not in path.as_posix() and (n := len(path.read_text().splitlines())) > MAX_LINES]
    assert large == []


def test_every_area_package_names_what_the_api_calls():
    packages = sorted((ROOT / "app" / "services").glob("*/__init__.py"))
    assert len(packages) >= 7
    for init in packages:
        assert "__all__" in init.read_text(), f"{init.relative_to(ROOT)} does not name its functions"
