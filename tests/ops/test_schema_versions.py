"""Schema versioning: `db upgrade` creates a fresh database or upgrades one in place."""
import pathlib
import textwrap

from app.db import db
from app.migrations import MIGRATIONS_DIR, create_schema, schema_status
from app.models import Item
from tests.bundles import base_bundle
from tests.helpers import make_app


def test_fresh_database_is_stamped_with_every_migration(app, run_db):
    status = run_db(schema_status)
    assert status and all(applied for _, applied in status)
    # The runner shares its package with the migrations: only the numbered files are taken for one.
    numbered = sorted(p.stem for p in pathlib.Path(MIGRATIONS_DIR).glob("[0-9]*.py"))
    assert [name for name, _ in status] == numbered and "__init__" not in numbered
    assert run_db(create_schema) == []  # running it again applies nothing


def test_existing_database_keeps_its_data_through_a_new_migration(app, run_db, load_bundle, tmp_path):
    load_bundle(base_bundle())
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_initial.py").write_text("def up(migrator, db):\n    pass\n")
    (migrations / "0002_item_video.py").write_text(textwrap.dedent('''
        from peewee import CharField

        def up(migrator, db):
            migrator.migrate(migrator.add_column("item", "video_id", CharField(null=True)))
    '''))
    # Only this test's own migration is made pending: the database keeps the record of the real ones
    # (PostgreSQL's test database is shared by the session, and later tests upgrade it).
    run_db(lambda: db.execute_sql("DELETE FROM schema_migration WHERE name = '0002_item_video'"))

    applied = run_db(create_schema, str(migrations))

    assert applied == ["0002_item_video"]
    columns = run_db(lambda: {c.name for c in db.get_columns("item")})
    assert "video_id" in columns
    assert run_db(lambda: Item.select().count()) == len(base_bundle()["items"])
    assert run_db(create_schema, str(migrations)) == []
    # PostgreSQL's test database is shared by the session: put the schema back as it was.
    run_db(_drop_video_column)


def _drop_video_column():
    from playhouse.migrate import SchemaMigrator, migrate

    migrate(SchemaMigrator.from_database(db.obj).drop_column("item", "video_id"))
    db.execute_sql("DELETE FROM schema_migration WHERE name = '0002_item_video'")


def test_cli_upgrade_reports_what_it_applied(app):
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0 and "already current" in result.output
    status = app.test_cli_runner().invoke(args=["db", "status"])
    assert "0001_initial" in status.output and "pending" not in status.output


def test_health_checks_the_database(client):
    response = client.get("/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}


def test_health_answers_503_when_the_database_is_down():
    response = make_app("postgresql://postgres@127.0.0.1:1/nowhere").test_client().get("/health")
    assert response.status_code == 503
    assert response.get_json()["error"] == "service_unavailable"
