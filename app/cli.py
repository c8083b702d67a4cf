"""Operator commands: db, catalog, demo, tokens, notes, history, worker.

Each says which database it acts on and fails with one line (app/operator.py); those that delete
have --dry-run, and ask before deleting everything unless --yes.
"""
import json
import logging
import os

import click
from flask import current_app
from flask.cli import AppGroup, with_appcontext
from peewee import DatabaseError, InterfaceError

from app.backup import BackupError, backup, backup_path, kind_of, restore
from app.config import gunicorn_bind, local_url
from app.db import connection, embedded_url, sqlite_path
from app.db_faults import storage_fault
from app.errors import ApiError
from app.migrations import create_schema, schema_drift, schema_status
from app.models import Application, Item, Product, User
from app.operator import CREATES, CURRENT, EXISTS, confirm_everything, database_url, holds_rows, operator_command
from app.services import compat, history
from app.services.auth import count_dead_tokens, purge_dead_tokens
from app.services.auth import tokens as auth
from app.services.bundle import BundleError, export_bundle, import_bundle, read_bundle
from app.services.notifications.receiver import make_server
from app.services.notifications.worker import NotificationPump

db_cli = AppGroup("db", help="Database schema.")
tokens_cli = AppGroup("tokens", help="Access tokens.")
catalog_cli = AppGroup("catalog", help="Catalog bundles: import and export (import-format.md).")
notes_cli = AppGroup("notes", help="Note moderation.")
history_cli = AppGroup("history", help="The change history of compatibilities (H1).")


@db_cli.command("upgrade")
@operator_command(CREATES)
def db_upgrade():
    """Bring DATABASE_URL's schema to this release: build an empty database, or apply the migrations an
    existing one has not had yet (its data kept). Safe to run any number of times."""
    with connection():
        applied = create_schema()
    click.echo("applied: " + (", ".join(applied) if applied else "nothing, already current"))


@db_cli.command("init")
@operator_command(CREATES)
def db_init():
    """The same as `db upgrade` (import-format.md names this one): creates or upgrades the schema."""
    with connection():
        create_schema()
    click.echo("schema ready")


@db_cli.command("status")
@operator_command(EXISTS)
def db_status():
    """List the migrations and when each was applied; exit 1 when the schema is not this code's."""
    drift = schema_drift()
    for name, applied in schema_status():
        click.echo(f"{name}\t{applied or 'pending'}" + ("\tunknown to this code" if name in drift.unknown else ""))
    if drift:
        raise click.ClickException(str(drift))
    click.echo("schema current")


@db_cli.command("backup")
@click.argument("path", type=click.Path(dir_okay=True, writable=True))
@operator_command(EXISTS)
def db_backup(path):
    """Write the database to PATH in its own format (SQLite: a database file; PostgreSQL: pg_dump -Fc), or to a
    new timestamped file when PATH is a folder. Safe while the service serves; never overwrites a file."""
    try:
        path = backup_path(path)
        size = backup(path)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backup written: {path} ({size} bytes)")


@db_cli.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--dry-run", is_flag=True, help="Check the backup and say what would be replaced; change nothing")
@click.option("--yes", is_flag=True, help="Replace the database without asking")
@operator_command(CREATES)
def db_restore(path, dry_run, yes):
    """Replace everything in the database by the backup at PATH (written by db backup from the same kind of
    database). Stop the web service and the workers first."""
    try:
        kind_of(path)
        if dry_run:
            click.echo(f"would replace everything in the database by {path} (dry run)")
            return
        if not yes:
            confirm_everything(f"this replaces everything in the database by {path}")
        with connection():
            restore(path)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"restored from {path}; `flask --app wsgi db status` says whether it needs db upgrade")


@tokens_cli.command("create")
@click.option("--user", "user_id", type=int, required=True, help="User id")
@click.option("--ttl", type=int, default=None, help="Seconds until it expires (default: never)")
@operator_command(CURRENT)
def tokens_create(user_id, ttl):
    """Print a new access token for a user."""
    try:
        click.echo(auth.create_access_token(user_id, ttl))
    except ApiError as exc:
        raise click.ClickException(exc.message) from None


@tokens_cli.command("code")
@click.option("--client-id", required=True)
@click.option("--user", "user_id", type=int, required=True)
@operator_command(CURRENT)
def tokens_code(client_id, user_id):
    """Print an authorization code for (application, user), as a consent screen would."""
    try:
        click.echo(auth.issue_authorization_code(client_id, user_id, current_app.config["AUTHORIZATION_CODE_TTL_S"]))
    except ApiError as exc:
        raise click.ClickException(exc.message) from None


@tokens_cli.command("purge")
@click.option("--dry-run", is_flag=True, help="Say how many would be deleted; delete nothing")
@operator_command(CURRENT)
def tokens_purge(dry_run):
    """Delete expired or revoked access tokens, expired refresh tokens and expired or used codes."""
    counts = count_dead_tokens() if dry_run else purge_dead_tokens()
    click.echo(", ".join(f"{count} {name.replace('_', ' ')}" for name, count in counts.items())
               + (" would be purged (dry run)" if dry_run else " purged"))


@catalog_cli.command("import")
@click.argument("path", type=click.File("rb"))
@operator_command(CREATES)
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
@operator_command(CURRENT)
def catalog_export(path):
    """Write the whole database as a bundle (PATH, or - for standard output)."""
    bundle = export_bundle()
    json.dump(bundle, path, ensure_ascii=False, indent=1)
    path.write("\n")


# The serving part of README.md's first command: gunicorn and one worker beside it (bulk jobs,
# notifications); `kill $!` stops the worker once gunicorn has stopped.
SERVE = "flask --app wsgi worker & python -m app.serve; kill $!"


@click.command("demo")
@click.option("--force", is_flag=True, help="Load it into a database that holds data or is not the embedded one")
@with_appcontext
@operator_command(CREATES)
def demo(force):
    """Load the demo bundle into the embedded database and print a token of each demo user.

    Its tokens and its application's secret are published: it refuses a database that is not the
    embedded SQLite default (DATABASE_URL set), or that already holds data, unless --force."""
    from app.data.demo import DEMO_TOKENS, build_demo_bundle

    with connection():
        if not force and not _may_load_demo(DEMO_TOKENS):
            return
    bundle = build_demo_bundle()
    report = _import_or_exit(bundle, "demo")
    click.echo(f"demo loaded: {sum(report.values())} records")
    click.echo("These tokens and the application's secret are published (README.md): anyone can use them. "
               "Never load the demo where real users are served.", err=True)
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
    click.echo(f"\nServe it: {SERVE}   (gunicorn listens on {bind}{reach}; docs at {url}/docs)")
    if users:
        click.echo("Try: curl -H 'Authorization: Bearer " + users[0]["access_tokens"][0]
                   + f"' {url}/users/me")


def _may_load_demo(demo_tokens):
    """Whether demo may load without --force; says how to go on when it may not."""
    embedded = embedded_url(current_app.instance_path)
    if database_url() != embedded:
        raise click.ClickException(
            "demo installs published tokens, so it loads only into the embedded database (DATABASE_URL unset, "
            f"{sqlite_path(embedded)}); pass --force to load it into this one anyway")
    if not holds_rows(User, Item, Product):
        return True
    reset = f"rm -f {os.path.relpath(sqlite_path(embedded))}*"
    if any(auth.resolve_access_token(token) == user for user, token in demo_tokens.items()):
        click.echo(f"The demo is already loaded: nothing done. Serve it as it is ({SERVE}), or go back to the "
                   f"demo's state: stop both, `{reset}`, run demo again (--force loads the demo's records over "
                   "what is there).")
        return False
    raise click.ClickException(f"the database holds data that is not the demo's; demo loads only into an empty "
                               f"one (`{reset}` empties it), or pass --force to load the demo's records over it")


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
@operator_command(CURRENT)
def notes_moderate(compatibility_ids, status, operator_id):
    """Set the note status of compatibilities (APPROVED or CHECKED: shown to buyers)."""
    scope = history.ChangeScope(history.Actor(history.OPERATOR, operator_id))
    with history.change_scope(scope):
        try:
            changed = compat.moderate_notes(compatibility_ids, status)
        except compat.ModerationError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(f"{changed} note(s) set to {status}")


@history_cli.command("purge")
@click.option("--days", type=int, default=None, help="Keep this many days (default HISTORY_RETENTION_DAYS)")
@click.option("--dry-run", is_flag=True, help="Say how many records would be deleted; delete nothing")
@click.option("--yes", is_flag=True, help="Delete without asking, even when that is every record")
@operator_command(CURRENT)
def history_purge(days, dry_run, yes):
    """Delete change records older than the retention period."""
    days = current_app.config["HISTORY_RETENTION_DAYS"] if days is None else days
    if days < 0:
        raise click.ClickException("--days must be 0 or more")
    old, total = history.count_purgeable(days)
    if dry_run:
        click.echo(f"would purge {old} of {total} change record(s), those older than {days} days (dry run)")
        return
    if old and old == total and not yes:
        confirm_everything(f"this deletes every change record ({total}, all older than {days} days)")
    purged = history.purge_history(days)
    click.echo(f"purged {purged} change record(s) older than {days} days")


@click.command("worker")
@click.option("--threads", type=int, default=1, show_default=True,
              help="Tasks this process works on at once (each a thread with its own connection)")
@click.option("--nice", type=click.IntRange(0, 19), default=10, show_default=True,
              help="CPU priority of the job threads below the web workers' (os.nice): requests keep their "
                   "latency while a job runs (notifications are posted at the service's priority)")
@operator_command(CURRENT)
def worker(threads, nice):
    """Run one background worker in the foreground until stopped (Ctrl-C lets it finish its task
    first; SIGTERM stops it at once, which loses nothing either): it applies bulk compatibility jobs
    (J1) and, once a minute, puts back on the queue the jobs whose consumer died or whose enqueue
    was lost; and it posts the applications' notifications (extensions.md, N).

    To run several, start the command several times, on this host or on others: every worker
    shares the work of the queue that QUEUE_URL names (by default beside DATABASE_URL: a SQLite
    file next to the embedded database, which only this host's workers can reach, or tables in the
    PostgreSQL every host reaches; or a Redis, QUEUE_URL=redis://host:6379/0). Two workers share
    even one job, item by item. A worker killed at any point (kill -9 included) loses nothing:
    the item it was applying was not committed, and another worker takes it.
    """
    if threads < 1:
        raise click.ClickException("--threads must be 1 or more")
    # Linux keeps a nice value per thread, and a thread starts with its creator's: the notifications'
    # thread (and its delivery threads), started before os.nice, keeps the service's priority, as a
    # delivery's latency counts and its work is small; the job threads huey starts after run lower.
    NotificationPump(current_app.config).start()
    os.nice(nice)
    huey_log = logging.getLogger("huey")
    if not huey_log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        huey_log.addHandler(handler)
        huey_log.setLevel(logging.WARNING)
        logging.getLogger("huey.consumer").setLevel(logging.INFO)
    queue = current_app.extensions["bulk_queue"]
    queue.sweep()  # work a dead worker left, at once rather than at the first minute's sweep
    queue.consumer(threads).run()


@click.command("notify-receiver")
@click.option("--client-id", required=True, help="The application whose signing secret verifies the posts")
@click.option("--port", type=int, default=9000, show_default=True)
@operator_command(CURRENT)
def notify_receiver(client_id, port):
    """A demo receiver on 127.0.0.1:PORT printing each notification and whether its signature verifies
    (point the application's callback_url at it with N2; the workers need NOTIFY_ALLOW_PRIVATE=true
    to post to this host)."""
    secret = Application.select(Application.signing_secret).where(Application.client_id == client_id).scalar()
    if not secret:
        raise click.ClickException(f"application {client_id} does not exist")
    click.echo(f"listening on http://127.0.0.1:{port}/ for application {client_id}'s notifications")
    make_server(port, secret).serve_forever()


def init_app(app):
    for group in (db_cli, tokens_cli, catalog_cli, notes_cli, history_cli, demo, worker, notify_receiver):
        app.cli.add_command(group)
