"""H1 beyond the API: the catalog import (IMPORT), note moderation (OPERATOR), retention and
the bundle, which carries the history so that a backup restores it."""
import datetime

import pytest

from app.db import db
from app.models import CompatibilityChange
from app.services.bundle import export_bundle
from tests.compat.compat_data import GOL, SELLER_H, compat, full_bundle, product, url
from tests.history.helpers import etag, records, stored


@pytest.fixture(autouse=True)
def loaded(load_bundle):
    load_bundle(full_bundle())


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def test_import_records_creates_changes_and_replacements_but_not_a_repeat(client, load_bundle):
    load_bundle({"compatibilities": [compat("MLA100", pid, id=f"00000000-0000-4000-8000-00000000000{n}")
                                     for n, pid in enumerate(GOL[:3])]})
    assert [(r["action"], r["actor"]) for r in records(client)] == [("CREATE", {"user_id": None, "kind": "IMPORT"})] * 3
    tag = etag(client)
    load_bundle({"compatibilities": [compat("MLA100", pid, id=f"00000000-0000-4000-8000-00000000000{n}")
                                     for n, pid in enumerate(GOL[:3])]})
    assert len(records(client)) == 3 and etag(client) == tag  # the same bundle again changes nothing
    # A changed note, and GOL[2] under another id (the stored row is replaced).
    load_bundle({"compatibilities": [
        compat("MLA100", GOL[0], id="00000000-0000-4000-8000-000000000000", note="Del catálogo"),
        compat("MLA100", GOL[2], id="00000000-0000-4000-8000-00000000000f")]})
    later = records(client)[3:]
    assert [(r["action"], r["product_id"]) for r in later] == [("DELETE", GOL[2]), ("UPDATE", GOL[0]),
                                                             ("CREATE", GOL[2])]
    assert later[1]["changes"]["note"] == {"from": None, "to": "Del catálogo"}
    assert etag(client) != tag


def test_note_moderation_command_records_an_operator_change(client, cli):
    client.post(url(), json={"products": [product(GOL[0], note="Con ABS")]}, headers=SELLER_H)
    compatibility_id = records(client)[0]["compatibility_id"]
    tag = etag(client)
    result = cli("notes", "moderate", compatibility_id, "--status", "APPROVED", "--operator", "1001")
    assert result.exit_code == 0, result.output
    moderated = records(client)[-1]
    assert moderated["action"] == "UPDATE" and moderated["actor"] == {"user_id": 1001, "kind": "OPERATOR"}
    assert moderated["changes"] == {"note_status": {"from": "PENDING", "to": "APPROVED"}}
    assert etag(client) != tag
    again = cli("notes", "moderate", compatibility_id, "--status", "APPROVED")
    assert again.exit_code == 0 and "0 note(s)" in again.output and len(records(client)) == 2


def test_note_moderation_of_an_unknown_compatibility_fails_and_writes_nothing(client, cli, run_db):
    client.post(url(), json={"products": [product(GOL[0], note="Con ABS")]}, headers=SELLER_H)
    known = records(client)[0]["compatibility_id"]
    before = stored(run_db)
    result = cli("notes", "moderate", known, "00000000-0000-4000-8000-000000000099", "--status", "CHECKED")
    assert result.exit_code != 0 and "no compatibility" in result.output
    assert stored(run_db) == before


def test_purge_keeps_the_retention_period(app, client, cli, run_db):
    for pid in GOL[:3]:
        client.post(url(), json={"products": [product(pid)]}, headers=SELLER_H)
    old = datetime.datetime.now(datetime.UTC).replace(tzinfo=None) - datetime.timedelta(days=400)

    def age_first_two():
        ids = [r.id for r in CompatibilityChange.select().order_by(CompatibilityChange.id).limit(2)]
        CompatibilityChange.update(date_created=old).where(CompatibilityChange.id.in_(ids)).execute()
    run_db(age_first_two)
    assert app.config["HISTORY_RETENTION_DAYS"] == 365
    result = cli("history", "purge")
    assert result.exit_code == 0 and "purged 2" in result.output
    assert [r["product_id"] for r in records(client)] == [GOL[2]]
    assert "purged 1" in cli("history", "purge", "--days", "0", "--yes").stdout


def test_purge_finds_the_old_records_by_id_and_never_takes_a_younger_one(client, cli, run_db):
    for pid in GOL:
        client.post(url(), json={"products": [product(pid)]}, headers=SELLER_H)
    client.delete(url(), headers=SELLER_H)  # six more records: twelve
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    # Days old, in id order: older than the 365 days kept but for one young record among the
    # first, and one old record among the last (written out of order around the cutoff).
    days = [500, 400, 10, 400, 300, 5, 3, 2, 1, 0, 400, 0]

    def age():
        ids = [r.id for r in CompatibilityChange.select().order_by(CompatibilityChange.id)]
        for record_id, old in zip(ids, days, strict=True):
            CompatibilityChange.update(date_created=now - datetime.timedelta(days=old)).where(
                CompatibilityChange.id == record_id).execute()
        return ids
    ids = run_db(age)

    result = cli("history", "purge")
    left = run_db(lambda: {r.id for r in CompatibilityChange.select()})
    purged = set(ids) - left
    # The bisection stops at the young record or after the old one that follows it; the old
    # record among the last waits for a later purge; no younger one is ever taken.
    assert {ids[0], ids[1]} <= purged <= {ids[0], ids[1], ids[3]}, days
    assert f"purged {len(purged)} change record(s)" in result.stdout
    assert {ids[2], *ids[4:]} <= left
    indexes = run_db(lambda: {tuple(i.columns) for i in db.get_indexes("compatibility_change")})
    assert ("date_created",) not in indexes and ("item_key", "id") in indexes


def test_export_carries_the_history_and_import_restores_it(client, run_db, load_bundle):
    for pid in GOL[:2]:
        client.post(url(), json={"products": [product(pid, note="N")]}, headers={**SELLER_H, "X-Request-Id": pid})
    client.delete(url(), headers=SELLER_H)
    backup = run_db(export_bundle)
    assert len(backup["compatibility_history"]) == 4
    shown = records(client)
    run_db(lambda: CompatibilityChange.delete().execute())
    load_bundle(backup)
    assert records(client) == shown  # ids, order, actors, request ids and changes as they were
    # New records still get later ids (PostgreSQL's sequence moved past the restored ones).
    client.post(url(), json={"products": [product(GOL[3])]}, headers=SELLER_H)
    assert records(client)[-1]["id"] > shown[-1]["id"]


def test_restoring_a_backup_adds_no_import_records(client, run_db, load_bundle):
    client.post(url(), json={"products": [product(GOL[0])]}, headers=SELLER_H)
    backup = run_db(export_bundle)

    def wipe():
        from app.models import Compatibility
        Compatibility.delete().execute()
        CompatibilityChange.delete().execute()
    run_db(wipe)
    load_bundle(backup)
    assert [r["actor"]["kind"] for r in records(client)] == ["API"]


def test_a_bundle_with_a_malformed_history_record_is_refused(load_bundle):
    from app.services.bundle import BundleError

    with pytest.raises(BundleError) as refused:
        load_bundle({"compatibility_history": [{"id": 1, "item_id": "MLA100", "action": "MOVE",
                                                "compatibility_id": "x", "date_created": "2026-01-01T00:00:00Z",
                                                "actor": {"user_id": None, "kind": "API"}}]})
    assert any(p.startswith("compatibility_history[0].action") for p in refused.value.problems)
