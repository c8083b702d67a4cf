"""pymeli (a marketplace SDK on PyPI), unmodified, against the served app: `list_user_items` scans a
seller's items with search_type=scan, sending the first answer's scroll_id back for every page."""
import types

import pytest
import requests

from tests.bundles import SELLER, TOKENS, item
from tests.compat.compat_data import seeded_bundle

MARKETPLACE = "https://api.mercadolibre.com"
# More than pymeli's page of 100, so that it pages with the scroll_id more than once.
ITEMS = [f"MLA5{n:05d}" for n in range(250)]


@pytest.fixture
def many_items(load_bundle):
    load_bundle(seeded_bundle(items=[item(i, "MLA1747", "MLA-BRAKE_PADS") for i in ITEMS]))


def test_pymeli_list_user_items_pages_through_every_item_with_scroll_id(live, many_items, monkeypatch):
    import pymeli.pymeli

    # pymeli's API root is a literal in its code, not a setting: its module's `requests` sends the
    # marketplace's URLs to the served app instead; every request is otherwise as pymeli makes it.
    def get(url, **kwargs):
        assert url.startswith(MARKETPLACE)
        return requests.get(live + url[len(MARKETPLACE):], **kwargs)

    monkeypatch.setattr(pymeli.pymeli, "requests", types.SimpleNamespace(get=get, exceptions=requests.exceptions))
    meli = pymeli.Meli(client_id="5501", client_secret="s3cret", access_token=TOKENS[SELLER], refresh_token="unused")
    listed = meli.list_user_items(user_id=SELLER)
    assert listed == sorted(["MLA100", "MLA101", "MLA102", "MLA103", *ITEMS])
