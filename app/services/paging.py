"""One page of a paginated resource, as services return it; the resource's page envelope
(schemas.common.page_envelope) dumps it."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """`items` of a result that has `total` of them, from position `offset`, at most `limit`.
    A resource whose envelope carries more fields returns a subclass that adds them."""

    items: list
    total: int
    offset: int
    limit: int


def page_of(query, offset, limit, page_class=Page, **fields):
    """The page of a peewee query at (offset, limit): LIMIT and OFFSET in SQL and a COUNT of the
    whole, never a slice of fetched rows. `fields` are those a Page subclass adds."""
    return page_class(list(query.limit(limit).offset(offset)), query.count(), offset, limit, **fields)
