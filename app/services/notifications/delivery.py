"""One POST of a notification: to the address checked after resolving the name (the connection goes
to that address, never to a second lookup's answer), within one deadline for connecting, sending and
the answer's head, redirects not followed, and at most a few KiB of the answer read."""
import http.client
import socket
import ssl
import time

from app.services.notifications.addresses import RefusedUrl, parse_callback, resolve_for_delivery

MAX_ANSWER_BYTES = 4096
USER_AGENT = "marketplace-notifications/1"


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to a given address, the certificate checked against the URL's host name."""

    def __init__(self, address, host, port, timeout, context):
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, address, host, port, timeout):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def post(url, body, headers, timeout_s, allow_private):
    """None when a 2xx answered within `timeout_s`, else why not (a short text)."""
    deadline = time.monotonic() + timeout_s
    try:
        scheme, host, port, path = parse_callback(url)
        address = resolve_for_delivery(host, port, allow_private)
    except RefusedUrl as exc:
        return f"refused: {exc}"
    remaining = max(deadline - time.monotonic(), 0.001)
    if scheme == "https":
        conn = _PinnedHTTPSConnection(address, host, port, remaining, ssl.create_default_context())
    else:
        conn = _PinnedHTTPConnection(address, host, port, remaining)
    try:
        conn.connect()
        conn.sock.settimeout(max(deadline - time.monotonic(), 0.001))
        conn.request("POST", path, body=body, headers={
            **headers, "Content-Type": "application/json", "User-Agent": USER_AGENT, "Connection": "close"})
        conn.sock.settimeout(max(deadline - time.monotonic(), 0.001))
        answer = conn.getresponse()
        answer.read(MAX_ANSWER_BYTES)  # a little of it, so a well-behaved server sees its answer taken
        if 200 <= answer.status < 300:
            return None
        if 300 <= answer.status < 400:
            return f"answered {answer.status} (redirects are not followed)"
        return f"answered {answer.status}"
    except (OSError, http.client.HTTPException) as exc:
        return f"{type(exc).__name__}: {exc}"[:300]
    finally:
        conn.close()
