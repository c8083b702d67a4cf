"""Operator commands (issue 31): each says which database it acts on (password hidden) and fails with one
line (--verbose: the traceback); sqlite:/// paths follow one rule; demo stays away from data and from
other databases unless --force; what deletes has --dry-run and asks before deleting everything."""
import datetime
import subprocess
import sys

import click
import pytest

from app import cli as cli_module
from app import operator
from app.models import CompatibilityChange, Product
from tests.compat.compat_data import GOL, compat, full_bundle
from tests.gunicorn_util import ROOT, app_env, flask_cli

UNREACHABLE = "postgresql://app:s3cret@127.0.0.1:1/nowhere"


def flask(url, *args, cwd=ROOT, **env):
    environment = app_env(url, PYTHONPATH=ROOT, **env)
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=120)


def leaves(group, prefix=()):
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from leaves(command, prefix + (name,))
        else:
            yield prefix + (name,), command


def test_every_operator_command_names_its_database_and_fails_in_one_line(app):
    # flask-smorest's `openapi` commands write the API's description and never open the database.
    commands = {path: command for path, command in leaves(app.cli) if path[0] != "openapi"}
    assert {("db", "upgrade"), ("catalog", "export"), ("demo",), ("history", "purge")} <= set(commands)
    undecorated = [" ".join(path) for path, command in commands.items()
                   if "verbose" not in {param.name for param in command.params}]
    assert undecorated == [], "decorate them with app.operator.operator_command"


def test_an_unreachable_database_is_one_line_without_its_password():
    result = flask(UNREACHABLE, "catalog", "export", "-")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "database: postgresql://app:***@127.0.0.1:1/nowhere",
        'Error: OperationalError: connection failed: connection to server at "127.0.0.1", port 1 failed: '
        "Connection refused (database postgresql://app:***@127.0.0.1:1/nowhere; --verbose shows the traceback)"]
    verbose = flask(UNREACHABLE, "db", "status", "--verbose")
    assert verbose.returncode == 1 and "Traceback (most recent call last)" in verbose.stderr
    assert "s3cret" not in result.stderr + verbose.stderr


def test_a_missing_postgresql_database_is_one_line(postgres_database):
    url = postgres_database["url"].rsplit("/", 1)[0] + "/no_such_database_31"
    result = flask(url, "db", "upgrade")
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 2
    assert 'database "no_such_database_31" does not exist' in result.stderr.splitlines()[1]


def test_a_missing_sqlite_file_is_one_line_and_is_not_created(tmp_path):
    path = tmp_path / "missing.db"
    for args in (("db", "status"), ("catalog", "export", "-"), ("history", "purge", "--dry-run")):
        result = flask(f"sqlite:///{path}", *args)
        assert result.returncode == 1
        assert result.stderr.splitlines() == [f"database: sqlite:///{path}",
                                              f"Error: no database at {path}: `flask --app wsgi db upgrade` creates it"]
    assert not path.exists()


def test_sqlite_paths_relative_to_the_working_directory_and_absolute_and_a_missing_folder_named(tmp_path):
    created = flask("sqlite:///rel.db", "db", "upgrade", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert created.stderr.splitlines()[0] == f"database: sqlite:///rel.db ({tmp_path}/rel.db)"
    assert (tmp_path / "rel.db").exists()
    for url, folder in (("sqlite:///nonexistent/dir/file.db", tmp_path / "nonexistent" / "dir"),
                        (f"sqlite:///{tmp_path}/nonexistent/dir/file.db", tmp_path / "nonexistent" / "dir")):
        result = flask(url, "db", "upgrade", cwd=tmp_path)
        assert result.returncode == 78
        assert result.stderr.splitlines() == [
            f"error: DATABASE_URL={url!r}: the folder {folder} does not exist (sqlite:///path is relative to the "
            "working directory, sqlite:////path absolute); create it first"]
    assert not (tmp_path / "nonexistent").exists()


def test_commands_that_need_the_schema_refuse_one_behind(tmp_path):
    url = f"sqlite:///{tmp_path}/behind.db"
    flask_cli(url, "db", "upgrade")
    import sqlite3

    with sqlite3.connect(tmp_path / "behind.db") as conn:
        conn.execute("DELETE FROM schema_migration WHERE name = '0005_attribute_scopes'")
    result = flask(url, "catalog", "export", "-")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines()[1] == ("Error: the database is 1 migration behind this code (pending: "
                                             "0005_attribute_scopes): run `flask --app wsgi db upgrade`")
    warned = flask(url, "catalog", "export", "-", SCHEMA_CHECK="warn")
    assert warned.returncode == 0 and "warning: the database is 1 migration behind" in warned.stderr


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args, **kwargs: runner.invoke(args=list(args), **kwargs)


def test_demo_refuses_a_database_that_is_not_the_embedded_one(cli, run_db):
    result = cli("demo")
    assert result.exit_code == 1
    assert "demo installs published tokens, so it loads only into the embedded database" in result.stderr
    assert "pass --force" in result.stderr
    assert run_db(Product.select().count) == 0


def test_demo_on_the_embedded_database_loads_once_then_says_how_to_go_on(cli, run_db, load_bundle, monkeypatch,
                                                                        database_url):
    monkeypatch.setattr(cli_module, "embedded_url", lambda instance_path: database_url)
    first = cli("demo")
    assert first.exit_code == 0, first.output
    assert "demo loaded:" in first.stdout
    assert "published (README.md): anyone can use them" in first.stderr
    count = run_db(Product.select().count)
    again = cli("demo")
    assert again.exit_code == 0 and "The demo is already loaded: nothing done" in again.stdout
    assert "rm -f " in again.stdout and "--force" in again.stdout
    assert run_db(Product.select().count) == count


def test_demo_refuses_a_database_holding_other_data(cli, load_bundle, monkeypatch, database_url):
    monkeypatch.setattr(cli_module, "embedded_url", lambda instance_path: database_url)
    load_bundle(full_bundle())
    result = cli("demo")
    assert result.exit_code == 1 and "holds data that is not the demo's" in result.stderr


@pytest.fixture
def aged_history(load_bundle, run_db):
    """Three change records, the first two 400 days old."""
    load_bundle(full_bundle())
    load_bundle({"compatibilities": [compat("MLA100", pid, id=f"00000000-0000-4000-8000-00000000000{n}")
                                     for n, pid in enumerate(GOL[:3])]})
    old = datetime.datetime.now(datetime.UTC).replace(tzinfo=None) - datetime.timedelta(days=400)

    def age():
        ids = [r.id for r in CompatibilityChange.select().order_by(CompatibilityChange.id).limit(2)]
        CompatibilityChange.update(date_created=old).where(CompatibilityChange.id.in_(ids)).execute()

    run_db(age)
    return lambda: run_db(CompatibilityChange.select().count)


def test_history_purge_dry_run_counts_and_deletes_nothing(cli, aged_history):
    result = cli("history", "purge", "--dry-run")
    assert result.exit_code == 0
    assert result.stdout == "would purge 2 of 3 change record(s), those older than 365 days (dry run)\n"
    assert aged_history() == 3
    assert cli("history", "purge", "--days", "0", "--dry-run").stdout.startswith("would purge 3 of 3")
    assert aged_history() == 3


def test_history_purge_of_everything_needs_yes_without_a_terminal(cli, aged_history):
    assert cli("history", "purge").stdout == "purged 2 change record(s) older than 365 days\n"  # not everything
    refused = cli("history", "purge", "--days", "0")
    assert refused.exit_code == 1 and refused.stderr.splitlines()[-1] == (
        "Error: this deletes every change record (1, all older than 0 days); pass --yes to do it "
        "(there is no terminal to ask on)")
    assert aged_history() == 1
    assert cli("history", "purge", "--days", "0", "--yes").stdout == "purged 1 change record(s) older than 0 days\n"
    assert aged_history() == 0


def test_history_purge_of_everything_asks_on_a_terminal(cli, aged_history, monkeypatch):
    monkeypatch.setattr(operator, "on_terminal", lambda: True)
    declined = cli("history", "purge", "--days", "0", input="n\n")
    assert declined.exit_code == 1 and "this deletes every change record (3, all older than 0 days). Go on?" in \
        declined.stderr
    assert aged_history() == 3
    accepted = cli("history", "purge", "--days", "0", input="y\n")
    assert accepted.exit_code == 0 and aged_history() == 0


def test_tokens_purge_dry_run_deletes_nothing(cli, load_bundle, run_db):
    from app.models import AccessToken

    load_bundle(full_bundle())
    run_db(lambda: AccessToken.update(revoked=True).execute())
    before = run_db(AccessToken.select().count)
    result = cli("tokens", "purge", "--dry-run")
    assert result.stdout == (f"{before} access tokens, 0 refresh tokens, 0 authorization codes "
                             "would be purged (dry run)\n")
    assert run_db(AccessToken.select().count) == before > 0


def test_the_database_line_goes_to_stderr_so_stdout_stays_the_answer(cli, database_url):
    result = cli("db", "status")
    assert result.stderr.splitlines()[0] == f"database: {operator.describe(database_url)}"
    assert result.stdout.splitlines()[-1] == "schema current"
