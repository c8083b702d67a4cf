"""The app served over real HTTP, for the clients that only speak HTTP (OAuth libraries, an SDK, a
generated client, a browser): werkzeug's threaded server on 127.0.0.1, in the test's process, on the
test's own database (so it runs on [sqlite] and [postgresql] like every other test)."""
import threading

import pytest
from werkzeug.serving import make_server

from tests.compat.compat_data import compat, seeded_bundle


@pytest.fixture
def live(app):
    """The base URL of the app served on a free port, stopped at the end of the test."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(10)
    server.server_close()


@pytest.fixture
def catalog(load_bundle):
    """The test catalog with one compatibility on MLA100 (a Gol 2010) and none on MLA101."""
    bundle = seeded_bundle(compatibilities=[compat("MLA100", "MLA90001")])
    load_bundle(bundle)
    return bundle

