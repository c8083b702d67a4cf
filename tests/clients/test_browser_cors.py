"""A shop's web page on another origin calls check_compatibility (B3, a public POST that JSONP
cannot reach) with fetch, in Debian's headless chromium: CORS lets it read the answer."""
import html
import http.server
import json
import re
import subprocess
import threading

import pytest

from tests.clients.test_docs_offline import CHROMIUM_FLAGS, OFFLINE_FLAGS, chromium

PAGE = """<!doctype html><html><body><pre id="out">waiting</pre><script>
fetch("%(api)s/items/MLA100/check_compatibility", {
  method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({product_id: "MLA90001"})
}).then(r => r.json().then(body => ({status: r.status, body})))
  .then(answer => { document.getElementById("out").textContent = "ANSWER" + JSON.stringify(answer) + "END"; })
  .catch(error => { document.getElementById("out").textContent = "FAILED " + error; });
</script></body></html>"""


@pytest.fixture
def shop_page(live):
    """A page served from another origin (its own port) that calls the API at `live`."""
    body = (PAGE % {"api": live}).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/shop.html"
    server.shutdown()
    server.server_close()


def test_a_page_on_another_origin_reads_check_compatibility(catalog, shop_page, tmp_path):
    result = subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, *OFFLINE_FLAGS, f"--user-data-dir={tmp_path}", "--virtual-time-budget=10000",
         "--dump-dom", shop_page], capture_output=True, text=True, timeout=120)
    out = re.search(r'<pre id="out">(.*?)</pre>', result.stdout, re.S)
    assert out and out.group(1).startswith("ANSWER"), result.stdout[-2000:] + result.stderr[-2000:]
    answer = json.loads(html.unescape(out.group(1))[len("ANSWER"):-len("END")])
    assert answer["status"] == 200
    assert answer["body"]["compatibility_status"] == "COMPATIBLE"
