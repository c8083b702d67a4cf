"""One rule for queries (DESIGN.md 14): peewee's builder for writes and simple reads, hot paths as
named statements in their area's `queries.py`, and SQL text nowhere else in app/ but the bundle's
bulk loader, the models' and migrations' DDL and app/db.py's connection settings."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = ("app/services/bundle/", "app/models/", "app/migrations/", "app/db.py")

# A statement, or a clause of one spliced into a statement: what an f-string or a constant holds
# when SQL is written as text (upper case, as this project writes SQL; prose is not).
SQL_TEXT = re.compile(r"""^[\s("]*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s+\S+\s+AS\b
                          |(LEFT\s+|INNER\s+)?JOIN\s|FROM\s+\S+|WHERE\s|UNION\s|GROUP\s+BY\s|ORDER\s+BY\s)
                          |\sUNION\s+ALL\s""", re.VERBOSE)


def _text(node):
    """The text of a constant string, or of an f-string with each placeholder as `?`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "?" for part in node.values)
    return None


def _docstrings(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def sql_texts(source):
    """(line, text) of each string in `source` that holds SQL, docstrings aside. A string inside an
    f-string is reported once, as the f-string."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(part) for part in node.values)
    found = []
    for node in ast.walk(tree):
        text = None if id(node) in skipped else _text(node)
        if text is not None and SQL_TEXT.search(text):
            found.append((node.lineno, text))
    return sorted(found)


def _governed(path):
    relative = path.relative_to(ROOT).as_posix()
    return path.name != "queries.py" and not relative.startswith(ALLOWED)


def test_sql_text_only_in_queries_modules_and_the_bulk_loader():
    found = [f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
             for path in sorted((ROOT / "app").rglob("*.py")) if _governed(path)
             for line, text in sql_texts(path.read_text())]
    assert found == [], "SQL text outside a queries.py module:\n" + "\n".join(found)


def test_the_check_sees_sql_text_and_lets_prose_be():
    source = '''
"""A SELECT in prose, in a docstring: FROM here WHERE there."""
A = "SELECT id FROM item WHERE id = ?"
B = f" FROM product p WHERE p.id IN ({marks})"
C = " UNION ALL ".join(parts)
D = f"UPDATE {table} SET n = 1"
E = "DELETE FROM item"
F = ("(SELECT id FROM attribute_scope WHERE domain_id = ?)")
G = "Select a product from the list, then order by name"
H = CREATE, UPDATE, DELETE = "CREATE", "UPDATE", "DELETE"
I = f"Attribute {a} is repeated in known_attributes"
'''
    assert [line for line, _ in sql_texts(source)] == [3, 4, 5, 6, 7, 8]
