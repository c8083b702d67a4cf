"""/docs works without internet: Swagger UI comes from the app (the pinned swagger-ui-bundle package),
checked in Debian's headless chromium with every address but 127.0.0.1 unreachable."""
import os
import re
import shutil
import subprocess

import pytest
import requests

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The network cut off: names resolve to nothing (except localhost), and any other address goes to a
# proxy that is not there; only loopback is reached directly.
OFFLINE_FLAGS = ["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
                 "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost"]


def chromium():
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail("chromium required (apt-get install chromium) but not found")
        pytest.skip("chromium not installed (apt-get install chromium)")
    return path


def rendered_dom(url, profile):
    """The page's DOM after its scripts ran, in a fresh profile with the network cut off."""
    result = subprocess.run([chromium(), *CHROMIUM_FLAGS, *OFFLINE_FLAGS, f"--user-data-dir={profile}",
                             "--virtual-time-budget=15000", "--dump-dom", url],
                            capture_output=True, text=True, timeout=120)
    return result.stdout


def test_docs_page_lists_the_operations_in_a_browser_without_network(live, tmp_path):
    page = requests.get(f"{live}/docs", timeout=10).text
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(a.startswith("/docs/assets/") for a in assets), assets  # nothing from a CDN

    # The cut is real: the CDN the page used to load Swagger UI from is out of reach.
    assert "swagger" not in rendered_dom("https://cdn.jsdelivr.net/npm/swagger-ui-dist/swagger-ui.css",
                                         tmp_path / "probe")
    dom = rendered_dom(f"{live}/docs", tmp_path / "profile")
    assert "Marketplace listings API" in dom
    operations = re.findall(r'class="opblock opblock-(get|post|put|delete)', dom)
    assert len(operations) >= 30, dom[-3000:]
    assert "/items/{item_id}/compatibilities" in dom.replace("&#8203;", "").replace("\u200b", "")
