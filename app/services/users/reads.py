"""A user's public record (id, nickname, site_id), and the caller's own, which says what it is."""
from app.errors import ApiError
from app.models import Item, User


def get_user(user_id):
    """GET /users/{id}: the public record of any user."""
    # Ids are BIGINTs: a larger one cannot exist, and PostgreSQL would refuse to compare with it.
    user = User.get_or_none(User.id == user_id) if 0 < user_id < 2 ** 63 else None
    if user is None:
        raise ApiError("user_not_found", f"User {user_id} does not exist")
    return {"id": user.id, "nickname": user.nickname, "site_id": user.site_id}


def get_me(caller_id):
    """GET /users/me: the caller's record, plus whether it sells (has listings) or only buys."""
    record = get_user(caller_id)
    sells = Item.select(Item.id).where(Item.seller == caller_id).exists()
    return {**record, "user_type": "seller" if sells else "buyer"}
