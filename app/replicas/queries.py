"""The one statement of the read replicas: how far a standby lags."""

# Whether the server is a standby, whether it has replayed all the WAL it received (then it lags
# nothing, however old its last transaction: an idle primary writes none), and the age in ms of
# the last transaction it replayed. A standby just restarted reports as received the start of the
# WAL segment it streams from, behind what it replayed; one that has not streamed yet, none.
LAG_SQL = ("SELECT pg_is_in_recovery(), "
           "coalesce(pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn(), pg_last_wal_receive_lsn() IS NULL), "
           "EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) * 1000")


def lag_ms(database):
    """How far behind its primary `database` (a connected standby) is, in ms: 0 when it has replayed
    all it received or is no standby, infinity when it has replayed no transaction yet."""
    standby, caught_up, age_ms = database.execute_sql(LAG_SQL).fetchone()
    if not standby or caught_up:
        return 0.0
    return float("inf") if age_ms is None else float(age_ms)
