"""Helpers of the real-client tests: the test bundle's OAuth application and a chunked POST."""
import http.client
import json

CLIENT_ID, CLIENT_SECRET, REDIRECT_URI = "5501", "s3cret", "https://example.org/cb"  # tests/bundles.py


def post_chunked(base_url, path, body, headers):
    """POST `body` with Transfer-Encoding: chunked (no Content-Length): (status, parsed JSON)."""
    host, port = base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        chunks = (body[i:i + 65536] for i in range(0, len(body), 65536))
        connection.request("POST", path, body=chunks, encode_chunked=True, headers={
            **headers, "Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()
