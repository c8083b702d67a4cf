"""Users: who a token belongs to (GET /users/me, what SDKs call first) and a user's public record."""
from app.services.users.reads import get_me, get_user

__all__ = ["get_me", "get_user"]
