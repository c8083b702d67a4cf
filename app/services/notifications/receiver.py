"""A demo receiver for the walk-through: prints each notification it is posted and whether its
Standard Webhooks signature verifies with the application's secret."""
import hmac
import http.server
import json
import sys

from app.services.notifications.signing import signature


def make_server(port, secret, out=sys.stdout):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            body = self.rfile.read(min(int(self.headers.get("Content-Length") or 0), 65536))
            expected = signature(secret, self.headers.get("webhook-id", ""),
                                 self.headers.get("webhook-timestamp", ""), body)
            given = self.headers.get("webhook-signature", "").split()
            verified = any(hmac.compare_digest(expected, s) for s in given)
            print(("signature OK " if verified else "signature BAD ") + json.dumps(json.loads(body or b"null")),
                  file=out, flush=True)
            self.send_response(200 if verified else 400)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    return http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
