"""Notifications (extensions.md, N): applications' callback URL, topics and signing secret (each
existing application gets its own secret), and on PostgreSQL the transaction id of change records
that the change feed pages by. The outbox and delivery tables are new models: create_tables() makes them."""
from peewee import CharField

from app.models.auth import new_signing_secret
from app.models.base import JSONField
from app.services.notifications.feed import ensure_feed_column


def up(migrator, db):
    migrator.migrate(
        migrator.add_column("application", "callback_url", CharField(max_length=500, null=True)),
        migrator.add_column("application", "topics", JSONField(null=True)),
        migrator.add_column("application", "signing_secret", CharField(max_length=100, null=True)),
    )
    for (client_id,) in db.execute_sql('SELECT "client_id" FROM "application"').fetchall():
        db.execute_sql(f'UPDATE "application" SET "signing_secret" = {db.param} WHERE "client_id" = {db.param}',
                       (new_signing_secret(), client_id))
    ensure_feed_column()
