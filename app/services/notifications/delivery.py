"""One POST of a notification: to the address checked after resolving the name (the connection goes
to that address, never to a second lookup's answer), redirects not followed, at most a few KiB of the
answer read, and the whole of it (connecting, the TLS handshake, sending, reading the answer) within
one deadline.

The deadline is ours, not the socket's: a socket timeout bounds each step, so a receiver that sends
its answer a byte at a time would hold a delivery for as long as it liked. Each step is given what is
left of the deadline as its timeout (connect, handshake, every send and every receive), and a step
that starts with nothing left fails at once."""
import http.client
import io
import socket
import ssl
import time

from app.services.notifications.addresses import RefusedUrl, parse_callback, resolve_for_delivery

MAX_ANSWER_BYTES = 4096
USER_AGENT = "marketplace-notifications/1"


class Deadline:
    def __init__(self, seconds):
        self.at = time.monotonic() + seconds

    def left(self):
        """Seconds left, or TimeoutError when there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out: the delivery's deadline passed")
        return left


class _DeadlineSocket:
    """A connected socket (plain or TLS) whose every send and receive is bounded by what is left of
    the deadline; http.client reads the answer through makefile(), so through recv_into here."""

    def __init__(self, sock, deadline):
        self._sock, self._deadline = sock, deadline

    def sendall(self, data):
        self._sock.settimeout(self._deadline.left())
        return self._sock.sendall(data)

    def recv_into(self, buffer, nbytes=0):
        self._sock.settimeout(self._deadline.left())
        return self._sock.recv_into(buffer, nbytes)

    def makefile(self, mode="rb", buffering=None):
        self._sock._io_refs += 1  # socket.makefile's count, which SocketIO.close takes back
        return io.BufferedReader(socket.SocketIO(self, "rb"))

    def __getattr__(self, name):  # close, _decref_socketios, setsockopt ...
        return getattr(self._sock, name)


class _PinnedConnection(http.client.HTTPConnection):
    """HTTP(S) to a given address within a deadline; over TLS the certificate is checked against
    the URL's host name."""

    def __init__(self, address, host, port, deadline, context=None):
        super().__init__(host, port)
        self._address, self._deadline, self._context = address, deadline, context

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self._deadline.left())
        if self._context is not None:
            sock.settimeout(self._deadline.left())  # the handshake, as a whole
            sock = self._context.wrap_socket(sock, server_hostname=self.host)
        self.sock = _DeadlineSocket(sock, self._deadline)


def post(url, body, headers, timeout_s, allow_private):
    """None when a 2xx answered within `timeout_s` of the start, else why not (a short text)."""
    deadline = Deadline(timeout_s)
    try:
        scheme, host, port, path = parse_callback(url)
        address = resolve_for_delivery(host, port, allow_private)
    except RefusedUrl as exc:
        return f"refused: {exc}"
    context = ssl.create_default_context() if scheme == "https" else None
    conn = _PinnedConnection(address, host, port, deadline, context)
    try:
        conn.request("POST", path, body=body, headers={
            **headers, "Content-Type": "application/json", "User-Agent": USER_AGENT, "Connection": "close"})
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
