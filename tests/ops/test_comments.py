"""Comments and docstrings say why, without measured figures: a timing goes stale, a commit message keeps it."""
import ast
import io
import pathlib
import re
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
NUMBER = r"(?<![\w.])\d+(?:[.,]\d+)*"
# A measured figure: a number with a unit of time, size or rate (a range such as "450-460 ms"
# included), a percentage, a speed factor ("2x faster", "4.5×"), a round of a diary, a commit hash.
MEASURED = re.compile("|".join((
    NUMBER + r"(?:\s*[-–]\s*\d+(?:[.,]\d+)*)?"
    r"(?:\s*(?:ms|µs|us|ns|secs?|seconds?|mins?|minutes?|[KMGT]i?B|req/s|rows/s|%)|\s+s|s(?!\s+of\b))(?![\w/])",
    NUMBER + r"\s*[x×](?![\w×])",
    r"×\s*\d",
    r"\brounds?\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b",
    r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w-])",
)), re.IGNORECASE)
# A pointer to the README's benchmark diary: the README named in the same sentence as its benchmarks
# or the measurements kept there (tests/benchmarks/README.md is where benchmarks live, and allowed).
README = re.compile(r"(?<![\w/])README\b")
DIARY = re.compile(r"\bbenchmarks?\b|EXPLAIN|\bprofil(?:e|ed|er|ing)\b|\btimings?\b|\bmeasure(?:d|ments?)\b",
                   re.IGNORECASE)
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")


def sources():
    for top in ("app", "schemas"):
        yield from sorted((ROOT / top).rglob("*.py"))


def texts(source):
    """(first line, text) of every comment block (consecutive comment lines, `#` dropped) and
    every docstring or other bare string statement of `source`."""
    block, last = [], None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            if block and token.start[0] != last + 1:
                yield block[0][0], "\n".join(text for _, text in block)
                block = []
            block.append((token.start[0], token.string.lstrip("#")))
            last = token.start[0]
    if block:
        yield block[0][0], "\n".join(text for _, text in block)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield node.lineno, ast.get_source_segment(source, node)


def offences(source):
    """(line, excerpt) of each measured figure or diary pointer in the comments and docstrings."""
    found = []
    for first, text in texts(source):
        hits = [m.start() for m in MEASURED.finditer(text)]
        offset = 0
        for sentence in SENTENCE_END.split(text):
            start = text.index(sentence, offset)
            offset = start + len(sentence)
            if README.search(sentence) and DIARY.search(sentence):
                hits.append(start + README.search(sentence).start())
        for line in sorted({first + text.count("\n", 0, at) for at in hits}):
            found.append((line, source.splitlines()[line - 1].strip()))
    return found


def test_no_comment_or_docstring_carries_a_measured_figure():
    wrong = [f"{path.relative_to(ROOT)}:{line}: {excerpt}"
             for path in sources() for line, excerpt in offences(path.read_text())]
    assert wrong == [], "\n".join(["say why without the figure (figures go in commit messages):", *wrong])


@pytest.mark.parametrize("text", [
    "# took 0.4 ms", "# 450-460 ms with JIT", "# 4.5 s on PostgreSQL", "# 1.45–1.74 s each", "# 3 µs",
    "# 12 seconds", "# 9s to load", "# 5 minutes", "# 16 MB resident", "# 2 KiB", "# 1,200 req/s", "# 90,000 rows/s",
    "# 13 % of an import", "# 6% of a read", "# 2x faster", "# 4.5× the old", "# ×3", "# since round 4",
    "# rounds two to nine", "# commit 89d1b67", "# (README, Benchmarks)", '# see README "Benchmarks"',
    "# the compiling showed in the benchmarks (README).", "# EXPLAIN ANALYZE in the README",
    '"""A docstring, p50 249 ms\n    against 25."""', '"""A figure split across lines: 0.69\n    s."""',
])
def test_the_scan_finds_figures(text):
    assert offences(text + "\n")


@pytest.mark.parametrize("text", [
    "# limit 1 to 200, default 50; offset 0 to 10,000", "# a 30-second window", "# the 2.8 TDI SRV 4x4",
    "# 180 days", "# RFC 9110, 15.4.5", "# a round trip, not two", "# a catalog's 100,000s of records",
    "# 019bdb46-aa00-7344-888f-f2c7f64491cc",
    "# MLA1500000011", "# 2000004512", "# README \"Error codes\"", "# tests/benchmarks/README.md has the method",
    "# Benchmark only: false skips the history", "# client%5Fsecret", "# SHA-256", "# a 413 answer",
    '"""The README\'s example vehicle."""', "# the 1.6 versions", "# a `SELECT 1` round trip",
])
def test_the_scan_leaves_facts_alone(text):
    assert offences(text + "\n") == []
