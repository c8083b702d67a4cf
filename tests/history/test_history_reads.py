"""H1's view: newest first, paged as every list, `since`, only the item's seller."""
import datetime

import pytest

from app.models import CompatibilityChange
from tests.compat.compat_data import GOL, OTHER_H, SELLER_H, full_bundle, product, url
from tests.helpers import assert_error
from tests.history.helpers import history


@pytest.fixture(autouse=True)
def loaded(load_bundle, client):
    load_bundle(full_bundle())
    for pid in GOL:  # six writes, one record each
        assert client.post(url(), json={"products": [product(pid)]}, headers=SELLER_H).status_code == 200


def test_records_come_newest_first_with_paging(client):
    page = history(client, limit=2, offset=1)
    assert page["paging"] == {"total": 6, "offset": 1, "limit": 2}
    assert [r["product_id"] for r in page["results"]] == [GOL[4], GOL[3]]
    everything = history(client)["results"]
    assert [r["id"] for r in everything] == sorted((r["id"] for r in everything), reverse=True)
    assert history(client, offset=6)["results"] == []


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": 201}, {"offset": 10001}, {"since": "yesterday"}])
def test_paging_and_since_out_of_range_are_400(client, query):
    assert_error(client.get(url("MLA100", "/history"), query_string=query, headers=SELLER_H), 400,
                 "validation_error")


def test_since_keeps_only_later_changes(client, run_db):
    # Spread the records over time: the first three an hour earlier.
    def backdate():
        for row in CompatibilityChange.select().order_by(CompatibilityChange.id).limit(3):
            row.date_created -= datetime.timedelta(hours=1)
            row.save()
    run_db(backdate)
    newest = history(client)["results"]
    cut = newest[2]["date_created"]  # the oldest of the three recent ones
    later = history(client, since=cut)["results"]
    assert [r["id"] for r in later] == [r["id"] for r in newest[:2]]
    hour_ago = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=30)).isoformat()
    assert history(client, since=hour_ago)["paging"]["total"] == 3
    # A zone other than UTC means the same instant.
    local = (datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=-3)))
             - datetime.timedelta(minutes=30)).isoformat()
    assert history(client, since=local)["paging"]["total"] == 3


def test_only_the_items_seller_reads_its_history(client):
    refused = assert_error(client.get(url("MLA100", "/history"), headers=OTHER_H), 403, "forbidden")
    # The refusal names the read that was refused, not a change (which the write endpoints say).
    assert refused["message"] == ("Item MLA100 belongs to another seller: only its seller may read its "
                                  "compatibilities' change history")
    written = client.delete(url("MLA100", ""), headers=OTHER_H)
    assert assert_error(written, 403, "forbidden")["message"].endswith("only its seller may change it")
    assert_error(client.get(url("MLA100", "/history")), 401, "invalid_token")
    assert_error(client.get(url("MLA999", "/history"), headers=SELLER_H), 404, "item_not_found")
    assert_error(client.get(url("bad-id", "/history"), headers=SELLER_H), 400, "invalid_item_id")


def test_an_item_without_changes_has_an_empty_history(client):
    assert history(client, "MLA101") == {"results": [], "paging": {"total": 0, "offset": 0, "limit": 50}}


def test_dates_keep_microseconds_so_since_separates_records_of_one_second(client):
    date = history(client)["results"][0]["date_created"]
    assert date.endswith("Z") and len(date.split(".")[1]) == 7
