"""gunicorn's sync worker, answering the requests gunicorn itself rejects with the error object.

gunicorn refuses a request line over `limit_request_line` (414), a header over
`limit_request_field_size` or more than `limit_request_fields` headers (431), malformed requests (400),
an `Expect` other than 100-continue (417) and unknown transfer codings (501) before the app sees them,
with an HTML page. Clients of this API parse JSON errors only. gunicorn 27 has no hook for that page's
body: the worker lets gunicorn write it to a stand-in socket, keeps its status line, and sends JSON.
"""
import json

from gunicorn import util
from gunicorn.http.errors import ExpectationFailed, LimitRequestHeaders, LimitRequestLine, UnsupportedTransferCoding
from gunicorn.workers.sync import SyncWorker

# gunicorn's statuses for the requests it rejects, and our code for each (all in app.errors.CODES).
CODE_BY_STATUS = {400: "bad_request", 403: "forbidden", 414: "uri_too_long", 417: "expectation_failed",
                  431: "request_header_fields_too_large", 500: "internal_error", 501: "not_implemented"}


class _Capture:
    """The client socket, except that what gunicorn writes to it is kept rather than sent."""

    def __init__(self, sock):
        self._sock = sock
        self.written = b""

    def sendall(self, data):
        self.written += data

    def __getattr__(self, name):
        return getattr(self._sock, name)


def rejection_message(exc, status, cfg):
    """What went wrong and what to send instead, naming the limit that was crossed."""
    if isinstance(exc, LimitRequestLine):
        return (f"Request line too long: the limit is {cfg.limit_request_line} bytes for the method, "
                "URL and HTTP version; shorten the URL (fewer or shorter query parameters)")
    if isinstance(exc, LimitRequestHeaders):
        return (f"Request header fields too large: at most {cfg.limit_request_fields} headers of at most "
                f"{cfg.limit_request_field_size} bytes each; send fewer or shorter headers")
    if isinstance(exc, ExpectationFailed):
        return "Unsupported Expect header: only 'Expect: 100-continue' is understood; send the request without it"
    if isinstance(exc, UnsupportedTransferCoding):
        return (f"Unsupported Transfer-Encoding ({str(exc)[:100]}); send the body with Content-Length or "
                "Transfer-Encoding: chunked")
    if status == 500:
        return "Internal server error; retry later"
    # The reason quotes what the client sent: bounded, so an answer never grows with the request.
    return f"Malformed HTTP request ({str(exc)[:200]}); send a valid HTTP/1.1 request line and headers"


def json_error(status, reason, message):
    code = CODE_BY_STATUS.get(status, "bad_request" if status < 500 else "internal_error")
    body = json.dumps({"message": message, "error": code, "status": status, "cause": []}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class JsonErrorSyncWorker(SyncWorker):
    """gunicorn still chooses the status and logs the rejection; only the body changes."""

    def handle_error(self, req, client, addr, exc):
        capture = _Capture(client)
        super().handle_error(req, capture, addr, exc)
        status_line = capture.written.split(b"\r\n", 1)[0].decode("latin-1")
        _, status, reason = (status_line.split(" ", 2) + ["", ""])[:3]
        if not status.isdigit():
            return  # gunicorn wrote nothing (it could not): neither do we
        status = int(status)
        try:
            util.write_nonblock(client, json_error(status, reason, rejection_message(exc, status, self.cfg)))
        except Exception:
            self.log.debug("Failed to send error message.")

