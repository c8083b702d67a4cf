"""Operator commands: db, catalog, demo, tokens, notes, history."""
import json

import click
from flask import current_app
from flask.cli import AppGroup, with_appcontext
from peewee import DatabaseError, InterfaceError

from app.config import gunicorn_bind, local_url
from app.db import connection
from app.db_faults import storage_fault
from app.errors import ApiError
from app.migrations import create_schema, schema_drift, schema_status
from app.services import compat, history
from app.services.auth import purge_dead_tokens
from app.services.auth import tokens as auth
from app.services.bundle import BundleError, export_bundle, import_bundle, read_bundle

db_cli = AppGroup("db", help="Database schema.")
tokens_cli = AppGroup("tokens", help="Access tokens.")
catalog_cli = AppGroup("catalog", help="Catalog bundles: import and export (import-format.md).")
notes_cli = AppGroup("notes", help="Note moderation.")
history_cli = AppGroup("history", help="The change history of compatibilities (H1).")


@db_cli.command("upgrade")
def db_upgrade():
    """Bring DATABASE_URL's schema to this release: build an empty database, or apply the migrations an
    existing one has not had yet (its data kept). Safe to run any number of times."""
    with connection():
        applied = create_schema()
    click.echo("applied: " + (", ".join(applied) if applied else "nothing, already current"))


@db_cli.command("init")
def db_init():
    """The same as `db upgrade` (import-format.md names this one): creates or upgrades the schema."""
    with connection():
        create_schema()
    click.echo("schema ready")


@db_cli.command("status")
def db_status():
    """List the migrations and when each was applied; exit 1 when the schema is not this code's."""
    with connection():
        drift = schema_drift()
        for name, applied in schema_status():
            click.echo(f"{name}\t{applied or 'pending'}" + ("\tunknown to this code" if name in drift.unknown else ""))
    if drift:
        raise click.ClickException(str(drift))
    click.echo("schema current")


@tokens_cli.command("create")
@click.option("--user", "user_id", type=int, required=True, help="User id")
@click.option("--ttl", type=int, default=None, help="Seconds until it expires (default: never)")
def tokens_create(user_id, ttl):
    """Print a new access token for a user."""
    with connection():
        try:
            click.echo(auth.create_access_token(user_id, ttl))
        except ApiError as exc:
            raise click.ClickException(exc.message) from None


@tokens_cli.command("code")
@click.option("--client-id", required=True)
@click.option("--user", "user_id", type=int, required=True)
def tokens_code(client_id, user_id):
    """Print an authorization code for (application, user), as a consent screen would."""
    with connection():
        try:
            click.echo(auth.issue_authorization_code(
                client_id, user_id, current_app.config["AUTHORIZATION_CODE_TTL_S"]))
        except ApiError as exc:
            raise click.ClickException(exc.message) from None


@tokens_cli.command("purge")
def tokens_purge():
    """Delete expired or revoked access tokens, expired refresh tokens and expired or used codes."""
    with connection():
        purged = purge_dead_tokens()
    click.echo(", ".join(f"{count} {name.replace('_', ' ')}" for name, count in purged.items()) + " purged")


@catalog_cli.command("import")
@click.argument("path", type=click.File("rb"))
def catalog_import(path):
    """Load a catalog bundle (PATH, or - for standard input); creates the schema if missing."""
    # Bytes, not text: a file that is not UTF-8 is a problem to report, not a UnicodeDecodeError.
    try:
        bundle = read_bundle(path.read(), current_app.config["JSON_MAX_DEPTH"])
    except BundleError as exc:
        _exit_with_problems(exc.problems)
    report = _import_or_exit(bundle, "catalog import")
    for section, count in report.items():
        click.echo(f"{section}: {count}")
    click.echo(f"imported {sum(report.values())} records")


@catalog_cli.command("export")
@click.argument("path", type=click.File("w", encoding="utf-8"))
def catalog_export(path):
    """Write the whole database as a bundle (PATH, or - for standard output)."""
    with connection():
        bundle = export_bundle()
    json.dump(bundle, path, ensure_ascii=False, indent=1)
    path.write("\n")


@click.command("demo")
@with_appcontext
def demo():
    """Load the demo bundle and print a token of each demo user."""
    from app.data.demo import build_demo_bundle

    bundle = build_demo_bundle()
    report = _import_or_exit(bundle, "demo")
    click.echo(f"demo loaded: {sum(report.values())} records")
    users = [u for u in bundle.get("users", ()) if u.get("access_tokens")]
    click.echo("user_id nickname token")
    for user in users:
        click.echo(f"{user['id']} {user['nickname']} {user['access_tokens'][0]}")
    for application in bundle.get("applications", ()):
        click.echo(f"\nOAuth application: client_id {application['client_id']}  client_secret "
                   f"{application['client_secret']}  redirect_uri {application['redirect_uri']}  "
                   f"(acts for user {application['owner_id']} with grant_type=client_credentials)")
    # The address gunicorn_conf will bind, from the same BIND / PORT environment.
    bind = gunicorn_bind()
    url = local_url(bind)
    # Loopback is the default (slow clients must meet the buffering proxy first): say so, or a user
    # trying from another machine thinks the server is down.
    reach = " (this machine only)" if bind.startswith(("127.", "localhost:", "[::1]:", "unix:")) else ""
    click.echo(f"\nServe it: gunicorn -c python:app.gunicorn_conf wsgi:app   (listens on {bind}{reach}; "
               f"docs at {url}/docs)")
    if users:
        click.echo("Try: curl -H 'Authorization: Bearer " + users[0]["access_tokens"][0]
                   + f"' {url}/users/me")


def _import_or_exit(bundle, command):
    """The schema first (a missing one is created, as import-format.md says), then the bundle. A
    full disk or a read-only filesystem is the operator's to fix: one line saying so, no traceback;
    the import's transaction leaves the database as it was."""
    try:
        with connection():
            create_schema()
            return import_bundle(bundle)
    except BundleError as exc:
        _exit_with_problems(exc.problems)
    except (DatabaseError, InterfaceError) as exc:
        fault = storage_fault(exc)
        if fault is None:
            raise
        click.echo(f"{command}: {fault.what}: {fault.remedy} and import again", err=True)
        raise SystemExit(1) from None


def _exit_with_problems(problems):
    for problem in problems:
        click.echo(problem, err=True)
    click.echo(f"{len(problems)} problem(s): nothing was imported", err=True)
    raise SystemExit(1)


@notes_cli.command("moderate")
@click.argument("compatibility_ids", nargs=-1, required=True)
@click.option("--status", type=click.Choice(["APPROVED", "CHECKED", "PENDING"]), required=True)
@click.option("--operator", "operator_id", type=int, default=None,
              help="Your user id, recorded in the change history as the actor")
def notes_moderate(compatibility_ids, status, operator_id):
    """Set the note status of compatibilities (APPROVED or CHECKED: shown to buyers)."""
    scope = history.ChangeScope(history.Actor(history.OPERATOR, operator_id))
    with connection(), history.change_scope(scope):
        try:
            changed = compat.moderate_notes(compatibility_ids, status)
        except compat.ModerationError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(f"{changed} note(s) set to {status}")


@history_cli.command("purge")
@click.option("--days", type=int, default=None, help="Keep this many days (default HISTORY_RETENTION_DAYS)")
def history_purge(days):
    """Delete change records older than the retention period."""
    days = current_app.config["HISTORY_RETENTION_DAYS"] if days is None else days
    if days < 0:
        raise click.ClickException("--days must be 0 or more")
    with connection():
        purged = history.purge_history(days)
    click.echo(f"purged {purged} change record(s) older than {days} days")


def init_app(app):
    for group in (db_cli, tokens_cli, catalog_cli, notes_cli, history_cli, demo):
        app.cli.add_command(group)
