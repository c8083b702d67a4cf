"""Fixtures of the bulk job tests: the base bundle loaded, a queue of the test's own, and helpers
that upload a body and run the queued tasks as a worker would."""
import json

import pytest

from tests.bundles import SELLER, TOKENS
from tests.helpers import bearer, queued_app

AUTH = bearer(TOKENS[SELLER])


@pytest.fixture
def app(request, database_url):
    """The base bundle loaded (in place of tests/conftest.py's empty app, so that its `client` and
    `run_db` serve these tests); the queue is a SQLite file beside the test's database, or on
    PostgreSQL its tables under a queue name of this test's own."""
    yield from queued_app(request, database_url)


@pytest.fixture
def work(app):
    """Runs the queued tasks until none is left; answers how many ran."""

    def run():
        with app.app_context():
            return app.extensions["bulk_queue"].run_pending()

    return run


def upload(client, rows=None, *, text=None, content_type="application/json", headers=None, token=TOKENS[SELLER]):
    """POST /compatibilities/bulk with JSON rows, or `text` of another form."""
    data = json.dumps({"rows": rows}) if text is None else text
    return client.post("/compatibilities/bulk", data=data, content_type=content_type,
                       headers={**bearer(token), **(headers or {})})


def results(client, job_id, **query):
    response = client.get(f"/compatibilities/bulk/{job_id}/results", query_string={"limit": 200, **query},
                          headers=AUTH)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["results"]


def job(client, job_id):
    response = client.get(f"/compatibilities/bulk/{job_id}", headers=AUTH)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def products_of(client, item_id):
    body = client.get(f"/items/{item_id}/compatibilities?extended=true", headers=AUTH).get_json()
    return {p["catalog_product_id"]: p for p in body["products"]}
