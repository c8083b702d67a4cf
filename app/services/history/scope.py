"""Who is changing compatibilities, and under which precondition: the scope of one write.

The HTTP layer opens a scope around each compatibility write (actor, request id, the request's
If-Match check); the import and the operator commands open their own. Services read it from a
context variable, so the write functions keep their signatures and never import Flask.
"""
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

API, IMPORT, OPERATOR, BULK = "API", "IMPORT", "OPERATOR", "BULK"


@dataclass(frozen=True)
class Actor:
    kind: str
    user_id: int | None = None
    client_id: str | None = None


@dataclass
class ChangeScope:
    actor: Actor
    request_id: str | None = None
    # precondition(etag_data) runs right after the item is locked, inside the write's
    # transaction; it raises to refuse the write (412) before anything is written.
    precondition: object = None
    # False only where HISTORY_ENABLED is off (benchmarks): records are skipped, states still change.
    record: bool = True
    # item id -> its compatibility state token once the write is done (for the answer's ETag).
    states: dict = field(default_factory=dict)
    # item id -> its key (Item.key), for the records: remembered when the write locks the item.
    keys: dict = field(default_factory=dict)
    # The bulk job whose row makes the change (actor BULK).
    job_id: str | None = None
    # Records written (or that would be, without `record`) by action: what a bulk row reports.
    counts: dict = field(default_factory=dict)


_current = ContextVar("compatibility_change_scope", default=None)


@contextmanager
def change_scope(scope):
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)


def current_scope():
    """The open scope; outside any (a script calling services), an operator's action."""
    return _current.get() or ChangeScope(Actor(OPERATOR))
