"""What a view can raise, found statically over app/ (tests/http/test_error_declarations.py).

From the view's body and its auth guard's item and owner checks, every function it names (called
or passed along) is followed through the imports, and every `ApiError(code, ...)` built on the way
is collected, with the status `CODES` gives its code (or its `status=` where a rule overrides it), also
when the code or status reach it as arguments of a helper (`require(Model, key, code, ...)`,
`authenticate(invalid_status, ...)`). A method counts as run when
its class is named on the way and its name is used as an attribute; a rate-limit decorator answers
429. A caught ApiError still counts: the analysis may ask for a declaration too many, never miss a
raise, and a status or code it cannot tell (a variable) is reported rather than passed over.
"""
import ast
import functools
import pathlib
from dataclasses import dataclass

import app as app_package
from app.errors import STATUS
from app.http.etag import ItemStateEtagMixin

ROOT = pathlib.Path(app_package.__file__).resolve().parent.parent
RATE_LIMITS = "app.http.ratelimit"
API_ERROR = ("app.errors", "ApiError")


@dataclass(frozen=True)
class Term:
    """A status or code as the analysis knows it: a literal, a parameter of the function being
    summarised, or something it cannot tell (a failure of the test, never a silent pass)."""

    kind: str  # "literal", "param", "unknown", or "coded" (the status CODES gives the code)
    value: object


@dataclass(frozen=True)
class Raise:
    status: Term
    code: Term
    where: str  # file:line where the code was given


class Module:
    def __init__(self, name, path):
        self.name, self.path = name, path
        self.tree = ast.parse(path.read_text(), str(path))
        self.defs = {node.name: node for node in self.tree.body
                     if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        # A module-level name bound to an expression (`compat_rate_limit = limiter.shared_limit(...)`,
        # a table of functions) stands for what that expression names.
        self.defs.update({target.id: node for node in self.tree.body if isinstance(node, ast.Assign)
                          for target in node.targets if isinstance(target, ast.Name)})
        self.imports = {}  # local name -> (module, attribute or None for a module)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in self.tree.body:
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + [base])
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (base.rstrip("."), alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.imports[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0], None)

    def where(self, node):
        return f"{self.path.relative_to(ROOT)}:{node.lineno}"


@functools.cache
def module(name):
    """app's module `name`, or None for anything outside app/."""
    if name != "app" and not name.startswith("app."):
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return Module(name, path)
    return None


@functools.cache
def resolve(module_name, name):
    """What `name` means in a module: ("def", Module, node), ("module", name), or None."""
    mod = module(module_name)
    if mod is None:
        return None
    if name in mod.defs:
        return ("def", mod, mod.defs[name])
    if name not in mod.imports:
        return None
    source, attribute = mod.imports[name]
    if attribute is None:
        return ("module", source) if module(source) else None
    if module(f"{source}.{attribute}") and not (module(source) and attribute in module(source).defs):
        return ("module", f"{source}.{attribute}")  # a package's submodule
    return resolve(source, attribute)


def meaning(mod, node):
    """What a Name or a module attribute (`compat.add_compatibilities`) refers to."""
    if isinstance(node, ast.Name):
        return resolve(mod.name, node.id)
    if isinstance(node, ast.Attribute):
        owner = meaning(mod, node.value)
        if owner and owner[0] == "module":
            return resolve(owner[1], node.attr)
    return None


def parameters(function):
    args = function.args
    positional = [a.arg for a in args.posonlyargs + args.args]
    defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
    return positional, [a.arg for a in args.kwonlyargs], defaults


def term(expr, params):
    if expr is None:
        return Term("unknown", "missing")
    if isinstance(expr, ast.Constant):
        return Term("literal", expr.value)
    if isinstance(expr, ast.Name) and expr.id in params:
        return Term("param", expr.id)
    return Term("unknown", ast.unparse(expr))


def bind(call, function):
    """The argument expression of each parameter of `function` at `call`."""
    positional, keyword_only, defaults = parameters(function)
    bound = dict(defaults)
    bound.update(zip(positional, call.args, strict=False))
    bound.update({k.arg: k.value for k in call.keywords if k.arg})
    return bound


def own_params(scope):
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        positional, keyword_only, _ = parameters(scope)
        return set(positional + keyword_only)
    return set()


@dataclass(frozen=True)
class Summary:
    raises: frozenset  # of Raise
    classes: frozenset  # (Module, ClassDef) named: their methods may run
    attributes: frozenset  # attribute names used, the methods that may be called on them


def literal_only(raised):
    """A raise of a function reached without a call to bind its parameters (a callback)."""
    status, code = (t if t.kind in ("literal", "coded") else Term("unknown", t.value)
                    for t in (raised.status, raised.code))
    return Raise(status, code, raised.where)


def substitute(raised, call, bound, params, mod):
    status, code, where = raised.status, raised.code, raised.where
    if status.kind == "param":
        status = term(bound[status.value], params) if status.value in bound else literal_only(raised).status
    if code.kind == "param":
        if code.value in bound:
            code, where = term(bound[code.value], params), mod.where(call)
        else:
            code = literal_only(raised).code
    return Raise(status, code, where)


def walk(function, decorators=True):
    for part in ([function] if decorators or not hasattr(function, "decorator_list") else function.body):
        yield from ast.walk(part)


@functools.cache
def summary(mod, function, decorators=True):
    """Every ApiError a function can build (status and code in terms of its parameters where they
    come from them), following the functions it calls or passes along; the classes and the
    attribute names it uses, for `reach` to add the methods that may run. A view's decorators
    are left to `raisable`: they are its declarations."""
    raises, classes, attributes = set(), set(), set()
    params = own_params(function)
    active.add(function)
    calls = {id(node.func): node for node in walk(function, decorators) if isinstance(node, ast.Call)}
    for node in walk(function, decorators):
        if isinstance(node, ast.Attribute):
            attributes.add(node.attr)
        if not isinstance(node, (ast.Name, ast.Attribute)):
            continue
        target = meaning(mod, node)
        if target is None or target[0] != "def":
            continue
        _, target_mod, target_node = target
        call = calls.get(id(node))
        if isinstance(target_node, ast.Assign):
            call = None  # what the expression names may run, with its parameters unknown
        if (target_mod.name, getattr(target_node, "name", None)) == API_ERROR:
            if call is not None:
                bound = {"error": (call.args[0:1] or [None])[0]}
                bound.update({k.arg: k.value for k in call.keywords if k.arg in ("error", "status")})
                status = term(bound["status"], params) if "status" in bound else CODED
                raises.add(Raise(status, term(bound["error"], params), mod.where(call)))
        elif isinstance(target_node, ast.ClassDef):
            classes.add((target_mod, target_node))
        elif target_node not in active:  # a recursive call adds nothing its first visit does not
            inner = summary(target_mod, target_node)
            classes |= inner.classes
            attributes |= inner.attributes
            if call is None:
                raises |= {literal_only(r) for r in inner.raises}
            else:
                bound = bind(call, target_node)
                raises |= {substitute(r, call, bound, params, mod) for r in inner.raises}
    active.discard(function)
    return Summary(frozenset(raises), frozenset(classes), frozenset(attributes))


active = set()
CODED = Term("coded", None)


def methods(mod, cls):
    """A class's methods with those of its bases in app/."""
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            yield mod, node
    for base in cls.bases:
        target = meaning(mod, base)
        if target and target[0] == "def" and isinstance(target[2], ast.ClassDef):
            yield from methods(target[1], target[2])


def reach(roots):
    """The raises of the roots and of every method that may run on a class they use: a method
    runs when its class is named and its name is used as an attribute (or it is a dunder)."""
    total = [summary(mod, node, decorators=False) for mod, node in roots]
    seen = set()
    while True:
        classes = set().union(*(s.classes for s in total))
        attributes = set().union(*(s.attributes for s in total))
        new = [(mod, node) for cls_mod, cls in classes for mod, node in methods(cls_mod, cls)
               if node not in seen and (node.name in attributes or node.name.startswith("__"))]
        if not new:
            return set().union(*(s.raises for s in total))
        for mod, node in new:
            seen.add(node)
            inner = summary(mod, node)
            total.append(Summary(frozenset(literal_only(r) for r in inner.raises), inner.classes, inner.attributes))


def function_node(function):
    """The module and the ast node of a function defined in app/ (a method by its qualname)."""
    mod = module(function.__module__)
    node = mod.tree
    for part in function.__qualname__.split("."):
        node = next(n for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part)
    return mod, node


def unwrap(function):
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return function


def raisable(view):
    """{(status, code): where} a view can answer from app code, and what cannot be told."""
    mod, node = function_node(unwrap(view))
    roots = [(mod, node)]
    owner = getattr(view, "auth_owner", None)
    if owner is not None:
        roots.append(function_node(owner))
    # A view of a route with an item in its path takes the item's row as `item`, which the guard
    # checked with its `auth_item` (app/http/auth.py).
    if getattr(view, "auth_item", None) is not None and "item" in parameters(node)[0]:
        roots.append(function_node(view.auth_item))
    found, unknown = {}, []
    for raised in reach(roots):
        if raised.code.kind == "literal" and raised.status.kind in ("literal", "coded"):
            status = raised.status.value if raised.status.kind == "literal" else STATUS[raised.code.value]
            found.setdefault((status, raised.code.value), raised.where)
        else:
            unknown.append(f"{raised.where}: status {raised.status.value}, code {raised.code.value}")
    for decorator in node.decorator_list:  # a rate limit answers 429 (app.http.ratelimit)
        if isinstance(decorator, ast.Name) and mod.imports.get(decorator.id, ("",))[0] == RATE_LIMITS:
            found[(429, "local_rate_limited")] = mod.where(decorator)
        if isinstance(decorator, ast.Attribute) and decorator.attr == "item_compatibility_write":  # its If-Match check
            for raised in reach([function_node(ItemStateEtagMixin._refuse_unless_current)]):
                found.setdefault((STATUS[raised.code.value], raised.code.value), raised.where)
    return found, unknown
