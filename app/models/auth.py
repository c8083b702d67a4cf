"""Users, registered applications and the hashed tokens and codes that authenticate them."""
import base64
import secrets

from peewee import BigIntegerField, BooleanField, CharField, ForeignKeyField

from app.models.base import BaseModel, DateTimeField, JSONField, utcnow
from app.models.common import Site


def new_signing_secret():
    """A Standard Webhooks secret: `whsec_` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


class User(BaseModel):
    id = BigIntegerField(primary_key=True)
    nickname = CharField(max_length=100)
    site = ForeignKeyField(Site, null=True, on_delete="SET NULL")


class Application(BaseModel):
    client_id = CharField(primary_key=True, max_length=64)
    secret_hash = CharField(max_length=64)
    owner = ForeignKeyField(User, on_delete="CASCADE")
    redirect_uri = CharField(max_length=500, null=True)
    # Notifications (extensions.md, N): where and what to post, and the key that signs the posts.
    callback_url = CharField(max_length=500, null=True)
    topics = JSONField(null=True)
    # Set when the row is made (the bundle's loader and the migration give each its own).
    signing_secret = CharField(max_length=100, null=True)


class IssuedToken(BaseModel):
    """What access and refresh tokens share: stored as the SHA-256 of their text, never the text.
    Not a table itself (app.models.ALL_MODELS lists the two)."""
    token_hash = CharField(primary_key=True, max_length=64)
    user = ForeignKeyField(User, on_delete="CASCADE")
    application = ForeignKeyField(Application, on_delete="CASCADE")
    scope = CharField(max_length=200, default="read write")
    created_at = DateTimeField(default=utcnow)
    revoked = BooleanField(default=False)


class AccessToken(IssuedToken):
    """expires_at null never expires; a token registered by a bundle (its fixed test tokens) has no application."""
    application = ForeignKeyField(Application, null=True, on_delete="CASCADE")
    expires_at = DateTimeField(null=True)


class RefreshToken(IssuedToken):
    """Single use: `used_at` is set when it is exchanged, and a used token is dead."""
    expires_at = DateTimeField()
    used_at = DateTimeField(null=True)


class AuthorizationCode(BaseModel):
    """Issued by an operator command, standing in for the consent screen."""
    code_hash = CharField(primary_key=True, max_length=64)
    application = ForeignKeyField(Application, on_delete="CASCADE")
    user = ForeignKeyField(User, on_delete="CASCADE")
    redirect_uri = CharField(max_length=500, null=True)
    expires_at = DateTimeField()
    used_at = DateTimeField(null=True)
