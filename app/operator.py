"""What every operator command shares: it says which database it acts on, fails with one line
(`--verbose`: the traceback too), and asks before deleting everything.

A command declares what it needs of the database: CREATES (it may make the database and its
schema, and opens its connections itself), EXISTS (the database must exist, any schema) or CURRENT
(it must hold this code's schema). The last two run inside one connection, opened first.
"""
import functools
import os
import sys
import traceback

import click
from flask import current_app

from app.config import shown_url
from app.db import connection, sqlite_path
from app.migrations import schema_drift
from app.readiness import one_line

CREATES, EXISTS, CURRENT = "creates", "exists", "current"


def database_url():
    """The URL the app's database was built from (DATABASE_URL, or the embedded default)."""
    return current_app.extensions["database_url"]


def describe(url):
    """The URL as commands print it: password hidden, a relative SQLite path resolved."""
    if url.startswith("sqlite:///") and not os.path.isabs(sqlite_path(url)):
        return f"{url} ({os.path.abspath(sqlite_path(url))})"
    return shown_url(url)


def operator_command(needs):
    """Decorates a command (below its @command): the database line on stderr (stdout stays the
    command's answer: a token, a bundle), the check of `needs`, one connection, and one line on failure."""

    def decorate(command):
        @functools.wraps(command)
        def run(*args, verbose=False, **kwargs):
            url = database_url()
            click.echo(f"database: {describe(url)}", err=True)
            try:
                _check_exists(url, needs)
                if needs == CREATES:  # it opens its connections itself, inside its own handling of faults
                    return command(*args, **kwargs)
                with connection():
                    if needs == CURRENT:
                        _check_schema()
                    return command(*args, **kwargs)
            except (click.ClickException, click.Abort, click.exceptions.Exit):
                raise
            except Exception as exc:
                if verbose:
                    traceback.print_exc()
                hint = "" if verbose else "; --verbose shows the traceback"
                raise click.ClickException(f"{one_line(exc)} (database {describe(url)}{hint})") from None

        return click.option("--verbose", is_flag=True, help="On failure, print the traceback too")(run)

    return decorate


def _check_exists(url, needs):
    # SQLite makes a missing file on connect: a command that only reads or deletes would then report
    # an empty database instead of a mistyped path.
    if needs != CREATES and url.startswith("sqlite:///") and not os.path.exists(sqlite_path(url)):
        raise click.ClickException(f"no database at {os.path.abspath(sqlite_path(url))}: "
                                   "`flask --app wsgi db upgrade` creates it")


def _check_schema():
    drift = schema_drift()
    if not drift:
        return
    if current_app.config["SCHEMA_CHECK"] == "warn":
        click.echo(f"warning: {drift} (SCHEMA_CHECK=warn: going on)", err=True)
        return
    raise click.ClickException(str(drift))


def confirm_everything(what):
    """Before a command deletes everything of a kind: ask on a terminal; without one (cron, CI), refuse.
    --yes skips this (the caller does not call it then)."""
    if not on_terminal():
        raise click.ClickException(f"{what}; pass --yes to do it (there is no terminal to ask on)")
    click.confirm(f"{what}. Go on?", abort=True, err=True)


def on_terminal():
    return sys.stdin.isatty()


def holds_rows(*models):
    """Whether any of these tables holds a row (False when the schema is not there yet)."""
    return any(model.table_exists() and model.select().exists() for model in models)

