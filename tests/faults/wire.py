"""Raw HTTP for the fault tests: bytes no HTTP library would send, and slow clients, connections that
send a request's header one line at a time, a line every few seconds, and never finish it (slowloris)."""
import contextlib
import http.client
import json
import select
import socket
import threading
import time

# Requests over gunicorn's default limits (limit_request_line 4094, limit_request_field_size 8190,
# limit_request_fields 100), and one that is not HTTP.
LONG_LINE = b"GET /health?q=" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
LARGE_HEADER = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Large: " + b"a" * 9000 + b"\r\n\r\n"
MANY_HEADERS = b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: a\r\n" % i for i in range(120)) + b"\r\n"
MALFORMED = b"NOT A REQUEST\r\n\r\n"
# Chunked bodies are parsed as the app reads them: this one's first chunk size is not hexadecimal.
MALFORMED_CHUNKED = b"POST /oauth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
UNKNOWN_EXPECT = b"POST /oauth/token HTTP/1.1\r\nHost: x\r\nExpect: fancy\r\nContent-Length: 2\r\n\r\n{}"
UNKNOWN_CODING = b"POST /oauth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br\r\n\r\n{}"


class SlowClients:
    """`count` connections to 127.0.0.1:`port`, each sending one more header line every `interval` s
    from a background thread, until the block ends."""

    def __init__(self, port, count, interval=2.0):
        self.port, self.count, self.interval = port, count, interval
        self.sockets = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)

    def __enter__(self):
        for _ in range(self.count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            self.sockets.append(sock)
        self._thread.start()
        return self

    def _trickle(self):
        line = 0
        while not self._stop.wait(self.interval):
            line += 1
            for sock in self.sockets:
                # A server that gave up on a slow client closed it: that is what it should do.
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Slow-%d: x\r\n" % line)

    def open_count(self):
        """How many of the connections the server still holds open without having answered (a closed
        or answered connection is readable)."""
        readable, _, _ = select.select(self.sockets, [], [], 0)
        return len(self.sockets) - len(readable)

    def __exit__(self, *exc_info):
        self._stop.set()
        self._thread.join()
        for sock in self.sockets:
            sock.close()


def health_latency(port, timeout):
    """Seconds `GET /health` took, or None when it did not answer within `timeout`."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/health")
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
        return time.monotonic() - start
    except TimeoutError:
        return None
    finally:
        conn.close()


def exchange(port, data, timeout=10, source="127.0.0.1"):
    """Send raw `data` from address `source`, read one answer (its Content-Length, else until the server
    closes): (status, headers with lower-case names, body as parsed JSON or text)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as sock:
        sock.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received and (chunk := sock.recv(65536)):
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
        length = int(headers.get("content-length", -1))
        while (length < 0 or len(body) < length) and (chunk := sock.recv(65536)):
            body += chunk
    text = body.decode("utf-8", "replace")
    try:
        return int(status_line.split()[1]), headers, json.loads(text)
    except ValueError:
        return int(status_line.split()[1]), headers, text
