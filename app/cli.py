"""Operator commands: db, catalog, demo, tokens."""
import click
from flask import current_app
from flask.cli import AppGroup

from app.db import connection
from app.schema import create_schema
from app.services import auth
from app.services.errors import ApiError

db_cli = AppGroup("db", help="Database schema.")
tokens_cli = AppGroup("tokens", help="Access tokens.")


@db_cli.command("init")
def db_init():
    """Create the schema in DATABASE_URL (safe to run twice)."""
    with connection():
        create_schema()
    click.echo("schema ready")


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


def init_app(app):
    for group in (db_cli, tokens_cli):
        app.cli.add_command(group)
