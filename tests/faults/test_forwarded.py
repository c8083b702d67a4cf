"""The client's address the app uses (rate limits without a token count by it): the connection's peer
unless FORWARDED_PROXIES says how many proxies in front append to X-Forwarded-For, and then the entry
the last of them wrote, never one the client wrote itself."""
import pytest

from app.http.ratelimit import rate_limit_key
from tests.helpers import make_app

# The client claims 203.0.113.9; nginx (the peer, 127.0.0.1) appended the address it saw, 198.51.100.7.
CLAIMED_AND_SEEN = {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}


@pytest.mark.parametrize(("proxies", "address"), [(0, "127.0.0.1"), (1, "198.51.100.7"), (2, "203.0.113.9")])
def test_client_address_is_the_entry_of_the_last_trusted_proxy(tmp_path, proxies, address):
    app = make_app(f"sqlite:///{tmp_path}/empty.db", FORWARDED_PROXIES=proxies)
    app.add_url_rule("/_key", "key", lambda: {"key": rate_limit_key()})
    answer = app.test_client().get("/_key", headers=CLAIMED_AND_SEEN, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert answer.get_json() == {"key": f"addr:{address}"}
