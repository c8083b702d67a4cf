"""README.md cannot drift: its walk-throughs run against a served demo and answer as shown, its error
table is `CODES`, its settings table is app/config.py's (the rule for shown answers: readme_answers.py)."""
import contextlib
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from app.config import SETTINGS
from app.errors import CODES
from tests.gunicorn_util import Gunicorn, app_env, flask_cli, fresh_database
from tests.ops.readme_answers import ANSWER, ELLIPSIS, compare, sh_blocks, walk_throughs

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
MARK = "@@readme-step@@"


def table(marker):
    """The rows (lists of cells) of the table between <!-- marker --> and <!-- /marker -->."""
    start, end = README.index(f"<!-- {marker} -->"), README.index(f"<!-- /{marker} -->")
    rows = [line.strip().strip("|").split(" | ") for line in README[start:end].splitlines()
            if line.startswith("| ") and not line.startswith("|---")]
    return [[cell.strip() for cell in row] for row in rows[1:]]


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_is_short_and_opens_with_a_contents_list_that_leads_somewhere():
    lines = README.splitlines()
    assert len(lines) <= 700, f"README.md has {len(lines)} lines; it is for users (at most 700)"
    contents = README[:README.index("\n## ")]
    assert re.search(r"^1\. \[", contents, re.MULTILINE), "README.md opens with its contents list"
    headings = {anchor(h) for h in re.findall(r"^#{2,3} (.+)$", README, re.MULTILINE)}
    assert sorted(set(re.findall(r"\]\(#([^)]+)\)", README)) - headings) == []
    top = [anchor(h) for h in re.findall(r"^## (.+)$", README, re.MULTILINE)]
    assert [h for h in top if f"(#{h})" not in contents] == [], "every section is in the contents list"


def test_the_error_table_is_codes_one_row_each():
    rows = table("error-codes")
    shown = [(re.fullmatch(r"`([a-z0-9_]+)`", code).group(1), int(status[:3])) for code, status, _ in rows]
    declared = [(code, status) for status, codes in CODES.items() for code in codes]
    assert sorted(set(declared) - set(shown)) == [], "codes missing from README.md's error table"
    assert sorted(set(shown) - set(declared)) == [], "rows of README.md's error table that CODES does not hold"
    assert len(shown) == len(set(shown)), "a code shown twice"
    assert all(meaning for _, _, meaning in rows), "every code says what it means"


def test_the_settings_table_is_app_config_one_row_each():
    """Every row of app/config.py's SETTINGS once, and a row's defaults are theirs, in its names' order."""
    named, shown = [], {}
    for variables, default, meaning in table("settings"):
        names = re.findall(r"`([A-Z][A-Z0-9_]+)`", variables)
        named += names
        shown[", ".join(names)] = (default, meaning)
    assert sorted(s.name for s in SETTINGS) == sorted(named), "README.md's settings table and app/config.py"
    assert len(named) == len(set(named))
    by_name = {s.name: s for s in SETTINGS}
    for names, (default, meaning) in shown.items():
        assert default == ", ".join(by_name[name].shown for name in names.split(", ")), names
        assert meaning, names


def test_walk_throughs_send_what_they_show_and_every_curl_is_one():
    blocks = walk_throughs(README)
    assert len(blocks) >= 5
    for block in blocks:
        sent = [line for line in block.lines if not line.lstrip().startswith("#")]
        assert not [line for line in sent if ELLIPSIS in line], f"block at line {block.line} sends a literal …"
        assert not [line for line in sent if "→" in line], f"block at line {block.line}: answers go on their own line"
        assert block.steps, f"block at line {block.line} shows no answer"
        tokens = {line.split("=", 1)[0] for line in block.lines if re.match(r"^[A-Z_0-9]+=", line)}
        assert {"API"} <= tokens
    others = [start for start, lines in sh_blocks(README) if any("curl" in line for line in lines)
              and start not in {block.line for block in blocks}]
    assert others == [], f"README.md blocks with curl that are not walk-throughs (set API=...): lines {others}"


@pytest.mark.parametrize("shown, printed, ok", [
    ('{"id":"MLA1","tags":[]}', '{"id":"MLA1","tags":[]}', True),
    ('{"id":"MLA1"}', '{"id":"MLA1","tags":[]}', False),  # a key not shown
    ('{"id":"MLA1",…}', '{"id":"MLA1","tags":[]}', True),
    ('{"id":"MLA1",…}', '{"id":"MLA2","tags":[]}', False),
    ('{"status":201,…}', '{"status":200}', False),
    ('[{"id":"a"},…]', '[{"id":"a"},{"id":"b"}]', True),
    ('[{"id":"a"},…]', '[{"id":"b"},{"id":"a"}]', False),
    ('[{"id":"a"}]', '[{"id":"a"},{"id":"b"}]', False),
    ('{"id":"…:1","rows":…}', '{"id":"123:1","rows":[1,2]}', True),
    ('{"count":1}', '{"count":true}', False),
    ('201', '201\n', True),
    ('"…"', '"3f5c"', True),
    ('{"a":1}\n{"b":2}', '{"a":1}\n{"b":2}\n', True),
    ('/**/cb([200,…]);', '/**/cb([200,{"X":1},[]]);', True),
    ('/**/cb([200,…]);', '/**/cb([404,{"X":1},[]]);', False),
])
def test_the_answer_rule(shown, printed, ok):
    assert (compare(shown, printed) == []) == ok, compare(shown, printed)


def run_block(block, port, folder):
    """Each step's printed answer, the block run by bash as a user pastes it (a shell of its own)."""
    script = []
    for number, step in enumerate(block.steps):
        script += [*step.code, f"printf '\\n{MARK}{number}\\n'"]
    script += [*block.tail, f"printf '\\n{MARK}end\\n'"]
    result = subprocess.run(["bash", "--noprofile", "--norc", "-c", "\n".join(script)], cwd=folder,
                            env={"PATH": "/usr/local/bin:/usr/bin:/bin", "PORT": str(port), "HOME": str(folder)},
                            capture_output=True, text=True, timeout=60)
    parts = re.split(rf"\n{re.escape(MARK)}(?:\d+|end)\n", result.stdout)
    assert len(parts) == len(block.steps) + 2, f"block at line {block.line} stopped early: {result.stderr}"
    return parts[:-2], parts[-2], result.stderr


@contextlib.contextmanager
def worker(url, folder):
    """One `flask --app wsgi worker` on the same database, as the first command starts beside gunicorn,
    so the bulk walk-through's jobs finish; its output kept in worker.log for a failure to show."""
    with open(folder / "worker.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "worker"], cwd=ROOT,
                                   env=app_env(url), stdout=log, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        process.terminate()  # SIGTERM: the worker stops at once, which loses nothing
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.mark.slow
def test_walk_throughs_answer_as_shown_on_a_fresh_demo(tmp_path):
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    assert missing == [], f"the README's walk-throughs use curl and jq: install {missing}"
    problems = []
    with fresh_database("sqlite", tmp_path) as url:
        flask_cli(url, "demo", "--force")
        # As the first command serves it: one worker beside gunicorn, the default settings, rate limits on.
        with worker(url, tmp_path) as queue, Gunicorn(url, tmp_path, workers=2, RATELIMIT_ENABLED="true") as server:
            for block in walk_throughs(README):
                printed, tail, errors = run_block(block, server.port, tmp_path)
                for step, answer in zip(block.steps, printed, strict=True):
                    problems += [f"README.md:{step.line} ({step.command().strip()[:80]}): {p}"
                                 for p in compare(step.answer, answer)]
                if tail.strip():
                    problems.append(f"README.md block at line {block.line} prints without a shown answer: "
                                    f"{tail.strip()[:200]!r}")
                if errors.strip():
                    problems.append(f"README.md block at line {block.line} wrote to stderr: {errors.strip()[:300]}")
            assert queue.poll() is None, "the worker exited:\n" + (tmp_path / "worker.log").read_text()
    assert problems == [], "\n".join(problems)


def test_every_shown_answer_follows_a_command():
    for block in walk_throughs(README):
        for step in block.steps:
            assert step.command(), f"README.md:{step.line}: {ANSWER!r} with no command before it"
