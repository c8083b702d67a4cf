"""Where each request reads (declared on its view), what the replica settings accept, and how the replica
set picks, skips and warns, without a server (the standby itself: test_replicas.py)."""
import logging

import pytest

from app.config import SettingsError, load_settings
from app.http.current import view_declaration
from app.replicas import PROBE_INTERVAL_S, RETRY_AFTER_FAILURE_S, WARNING_INTERVAL_S, Replica, ReplicaSet
from tests.helpers import Clock, make_app, python_with_settings

# The public reads of issue 34 (buyer search, check, finder, size-chart catalog reads, domain dumps, the
# predictor, sites and currencies). Chart search (25) and a chart by id stay on the primary: they return
# the caller's own SPECIFIC charts, which a seller must read as written.
REPLICA_READS = {
    ("GET", "/currencies"), ("GET", "/currencies/<currency_id>"), ("GET", "/sites"), ("GET", "/sites/<site_id>"),
    ("GET", "/sites/<site_id>/search"), ("GET", "/catalog/dumps/domains/<site_id>/compatibilities"),
    ("GET", "/sites/<site_id>/domain_discovery/search"), ("POST", "/items/<item_id>/check_compatibility"),
    ("GET", "/catalog_domains/<domain_id>"),
    ("POST", "/catalog_domains/<domain_id>/attributes/<attribute_id>/top_values"),
    ("POST", "/catalog_compatibilities/products_search/chunks"), ("GET", "/products/<product_id>"),
    ("GET", "/catalog/charts/<site_id>/configurations/active_domains"),
    ("GET", "/domains/<domain_id>/technical_specs"),
    ("POST", "/domains/<domain_id>/technical_specs"), ("POST", "/catalog/charts/domains/search"),
}


def test_the_public_reads_and_nothing_else_are_declared_to_read_from_a_replica(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/routing.db")
    with app.test_request_context():
        declared = {(method, rule.rule) for rule in app.url_map.iter_rules()
                    for method in rule.methods - {"HEAD", "OPTIONS"}
                    if view_declaration(rule.endpoint, method, "reads", "primary") == "replica"}
    assert declared == REPLICA_READS
    app.extensions["bulk_queue"].close()


@pytest.mark.parametrize("urls, shown", [
    ("sqlite:///replica.db", "'sqlite:///replica.db'"),
    ("postgresql://app:s3cret@standby/db,mysql://other/db", "'postgresql://app:***@standby/db,mysql://other/db'"),
])
def test_replica_urls_are_postgresql_ones(urls, shown):
    with pytest.raises(SettingsError) as refused:
        load_settings({"DATABASE_URL": "postgresql://primary/db", "DATABASE_REPLICA_URLS": urls})
    assert str(refused.value) == (f"DATABASE_REPLICA_URLS={shown} is not accepted: expected PostgreSQL URLs "
                                  "(postgresql://user@host:5432/name) separated by commas, or empty (default: empty)")


def test_urls_are_split_on_commas():
    settings = load_settings({"DATABASE_URL": "postgresql://primary/db",
                              "DATABASE_REPLICA_URLS": " postgresql://a/db, postgres://b:5433/db ,"})
    assert settings["DATABASE_REPLICA_URLS"] == ("postgresql://a/db", "postgres://b:5433/db")


@pytest.mark.parametrize("database_url", ["", "sqlite:///instance/x.db"])
def test_replicas_of_a_sqlite_database_are_refused(database_url):
    with pytest.raises(SettingsError, match=r"^DATABASE_REPLICA_URLS is set but DATABASE_URL=.* is not PostgreSQL"):
        load_settings({"DATABASE_URL": database_url, "DATABASE_REPLICA_URLS": "postgresql://standby/db"})


def test_the_service_does_not_start_with_replicas_of_sqlite(tmp_path):
    result = python_with_settings(["-m", "flask", "--app", "wsgi", "db", "status"],
                                  DATABASE_URL=f"sqlite:///{tmp_path}/x.db", DATABASE_REPLICA_URLS="postgresql://standby/db")
    assert result.returncode == 78 and result.stderr.splitlines() == [
        f"error: DATABASE_REPLICA_URLS is set but DATABASE_URL='sqlite:///{tmp_path}/x.db' is not PostgreSQL: "
        "replicas are hot standbys of a PostgreSQL primary"], result.stderr


class FakeStandby:
    """A replica's database: connects unless `down`, and answers the lag probe with `lag_ms`."""

    def __init__(self, lag_ms=0.0):
        self.lag_ms, self.down, self.open, self.connects = lag_ms, False, False, 0

    def connect(self, reuse_if_open=False):
        if self.down:
            raise ConnectionRefusedError("refused")
        self.open, self.connects = True, self.connects + 1

    def is_closed(self):
        return not self.open

    def close(self):
        self.open = False

    manual_close = close

    def execute_sql(self, sql):
        return self

    def fetchone(self):
        return True, self.lag_ms == 0, self.lag_ms


@pytest.fixture
def logged():
    seen = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: seen.append(record.getMessage())
    logging.getLogger("app.db").addHandler(handler)
    yield seen
    logging.getLogger("app.db").removeHandler(handler)


def test_replicas_take_turns_lagging_or_failing_ones_are_skipped_and_a_warning_is_logged_once_a_minute(logged):
    first, second, clock = FakeStandby(), FakeStandby(), Clock()
    replicas = ReplicaSet([Replica("postgresql://a/db", first), Replica("postgresql://b/db", second)], 1000, clock)
    assert [replicas.choose() for _ in range(4)] == [first, second, first, second]

    second.lag_ms = 1500
    clock.now += PROBE_INTERVAL_S
    assert [replicas.choose() for _ in range(3)] == [first, first, first]
    assert second.is_closed()
    first.down = True
    clock.now += PROBE_INTERVAL_S
    assert replicas.choose() is None  # the primary serves
    assert logged == ["read replica postgresql://b/db skipped, another replica or the primary serves its reads: "
                      "it lags 1500 ms behind the primary (REPLICA_MAX_LAG_MS=1000)"]

    first.down, second.lag_ms = False, 0
    clock.now += RETRY_AFTER_FAILURE_S
    assert {replicas.choose(), replicas.choose()} == {first, second}
    first.down = True
    clock.now += WARNING_INTERVAL_S
    assert None not in {replicas.choose() for _ in range(3)}
    assert len(logged) == 2 and "postgresql://a/db skipped" in logged[1] and "refused" in logged[1]
