"""An import the database ends for a deadlock or a serialization failure is run again, a bounded
number of times, then reported as one problem line (issue 30); any other error is not retried."""
import json

import peewee
import psycopg
import pytest

from app.db import db
from app.services.bundle import BundleError, export_bundle, import_bundle, pipeline
from tests.bundles import base_bundle


def conflicting(monkeypatch, failures, error=psycopg.errors.DeadlockDetected):
    """The import's item lock raises `error` (wrapped as peewee wraps the driver's) the first
    `failures` times; answers the list of calls."""
    calls, lock = [], pipeline._lock_items

    def lock_or_fail(item_ids):
        calls.append(len(calls) + 1)
        if len(calls) <= failures:
            with peewee.__exception_wrapper__:
                raise error("ended by the test")
        lock(item_ids)

    monkeypatch.setattr(pipeline, "_lock_items", lock_or_fail)
    return calls


def test_an_import_ended_by_a_deadlock_is_run_again(load_bundle, run_db, monkeypatch):
    expected = base_bundle()
    calls = conflicting(monkeypatch, pipeline.ATTEMPTS - 1)
    report = load_bundle(expected)
    assert calls == list(range(1, pipeline.ATTEMPTS + 1))
    assert report["items"] == len(expected["items"])
    exported = run_db(export_bundle)
    assert len(exported["products"]) == len(expected["products"])  # one attempt's rows, not three


def test_conflicts_on_every_attempt_are_one_problem_line(load_bundle, run_db, monkeypatch):
    calls = conflicting(monkeypatch, pipeline.ATTEMPTS, psycopg.errors.SerializationFailure)
    with pytest.raises(BundleError) as raised:
        load_bundle(base_bundle())
    assert raised.value.problems == [f"$: {pipeline.ATTEMPTS} attempt(s), each ended by a serialization failure "
                                     "with concurrent writes (run the import again)"]
    assert len(calls) == pipeline.ATTEMPTS
    assert run_db(export_bundle)["items"] == []


def test_inside_a_callers_transaction_there_is_no_second_attempt(run_db, monkeypatch):
    calls = conflicting(monkeypatch, 1)
    with pytest.raises(BundleError):
        run_db(db.atomic()(import_bundle), base_bundle())
    assert calls == [1]


def test_other_errors_are_not_retried(load_bundle, monkeypatch):
    calls = conflicting(monkeypatch, 1, psycopg.errors.DiskFull)
    with pytest.raises(peewee.OperationalError):
        load_bundle(base_bundle())
    assert calls == [1]


def test_the_command_exits_1_with_the_problem_line_and_no_traceback(app, monkeypatch):
    conflicting(monkeypatch, pipeline.ATTEMPTS)
    result = app.test_cli_runner().invoke(args=["catalog", "import", "-"], input=json.dumps(base_bundle()))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:] == [  # after the line naming the database (app/operator.py)
        f"$: {pipeline.ATTEMPTS} attempt(s), each ended by a deadlock with concurrent writes (run the import again)",
        "1 problem(s): nothing was imported"]
    assert "Traceback" not in result.output
