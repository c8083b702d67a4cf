"""Operator commands of import-format.md: `catalog import`, `catalog export` and `demo`."""
import json
import os
import subprocess
import sys

import pytest

from app.models import Product
from app.services.auth import tokens as auth
from app.services.bundle import export_bundle
from tests.bundle_data import full_bundle
from tests.bundles import SELLER, TOKENS, base_bundle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args, **kwargs: runner.invoke(args=list(args), **kwargs)


def test_catalog_import_loads_a_file_and_prints_the_report(cli, run_db, tmp_path):
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(full_bundle()), encoding="utf-8")
    result = cli("catalog", "import", str(path))
    assert result.exit_code == 0, result.output
    assert "products: 60" in result.stdout
    assert "charts: 2" in result.stdout
    assert run_db(auth.resolve_access_token, TOKENS[SELLER]) == SELLER


def test_catalog_import_reads_standard_input_for_dash(cli, run_db):
    result = cli("catalog", "import", "-", input=json.dumps(base_bundle()))
    assert result.exit_code == 0, result.output
    assert run_db(Product.select().count) == 60


def test_catalog_import_prints_every_problem_and_writes_nothing(cli, run_db):
    bundle = base_bundle()
    bundle["products"][12]["domain_id"] = "MLA-XYZ"
    bundle["items"][0]["seller_id"] = 999
    result = cli("catalog", "import", "-", input=json.dumps(bundle))
    assert result.exit_code != 0
    assert "products[12].domain_id: unknown domain MLA-XYZ" in result.stderr
    assert "items[0].seller_id: unknown user 999" in result.stderr
    assert "2 problem(s): nothing was imported" in result.stderr
    assert run_db(Product.select().count) == 0


def test_catalog_import_rejects_text_that_is_not_json(cli):
    result = cli("catalog", "import", "-", input="{not json")
    assert result.exit_code != 0
    assert "not valid JSON" in result.stderr


def test_catalog_export_writes_the_database_as_a_bundle(cli, load_bundle, run_db, tmp_path):
    load_bundle(full_bundle())
    path = tmp_path / "out.json"
    result = cli("catalog", "export", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text(encoding="utf-8")) == run_db(export_bundle)
    to_stdout = cli("catalog", "export", "-")
    assert json.loads(to_stdout.stdout) == run_db(export_bundle)


def test_demo_loads_the_demo_bundle_and_prints_tokens(cli, run_db):
    demo = pytest.importorskip("app.data.demo")
    result = cli("demo", "--force")
    assert result.exit_code == 0, result.output
    users = [u for u in demo.build_demo_bundle()["users"] if u.get("access_tokens")]
    assert users
    for user in users:
        token = user["access_tokens"][0]
        assert f"{user['id']} {user['nickname']} {token}" in result.stdout
        assert run_db(auth.resolve_access_token, token) == user["id"]
    assert "curl -H 'Authorization: Bearer " in result.stdout


def _flask(database_url, *args, stdin=None):
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)


def test_commands_create_the_schema_and_round_trip_through_files(tmp_path):
    """The contract as operators call it: a new SQLite file, import, export, import elsewhere."""
    bundle_path = tmp_path / "bundle.json"
    bundle_path.write_text(json.dumps(full_bundle()), encoding="utf-8")
    first = f"sqlite:///{tmp_path}/first.db"
    imported = _flask(first, "catalog", "import", str(bundle_path))
    assert imported.returncode == 0, imported.stderr
    exported = _flask(first, "catalog", "export", "-")
    assert exported.returncode == 0, exported.stderr
    second = f"sqlite:///{tmp_path}/second.db"
    assert _flask(second, "catalog", "import", "-", stdin=exported.stdout).returncode == 0
    assert json.loads(_flask(second, "catalog", "export", "-").stdout) == json.loads(exported.stdout)
    failed = _flask(second, "catalog", "import", "-", stdin=json.dumps({"items": [{"id": "X"}]}))
    assert failed.returncode == 1
    assert "items[0].site_id: missing data for required field" in failed.stderr
