"""`db`'s class: a peewee database proxy whose database is, per thread, the primary or a read replica."""
import threading

from peewee import DatabaseProxy


class _Route(threading.local):
    database = None  # the replica this thread's request reads from; None: the primary


class RoutedDatabaseProxy(DatabaseProxy):
    """`db` stands for the primary (`db.primary`), except in a thread serving a request whose view
    reads from a replica: `route` points it at that replica until the request ends (app/replicas).
    Model queries, `execute_sql` and the prepared statements all go through `db.obj`, so all follow.
    Per thread, as peewee keeps each database's connection: the development server's threads
    serve requests at once."""

    __slots__ = ("primary", "replicas", "_route")

    def __init__(self):
        object.__setattr__(self, "_route", _Route())
        object.__setattr__(self, "replicas", None)  # a ReplicaSet (app/replicas), or None
        super().__init__()

    def __setattr__(self, name, value):  # peewee's Proxy accepts only the names in its own __slots__
        object.__setattr__(self, name, value)

    @property
    def obj(self):
        database = self._route.database
        return self.primary if database is None else database

    @obj.setter
    def obj(self, database):
        self.primary = database

    @property
    def routed(self):
        """The replica this thread's request reads from, or None."""
        return self._route.database

    def route(self, database):
        """This thread's queries go to `database` (a replica), or with None to the primary again."""
        self._route.database = database
