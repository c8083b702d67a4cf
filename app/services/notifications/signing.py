"""Standard Webhooks signatures: `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
keyed by the base64 part of the application's `whsec_` secret, so the specification's libraries verify
a delivery unmodified."""
import base64
import hashlib
import hmac

PREFIX = "whsec_"


def signature(secret, message_id, timestamp, body):
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def signed_headers(secret, message_id, timestamp, body):
    """The three headers of a delivery of `body` (bytes) at `timestamp` (whole seconds since 1970)."""
    return {"webhook-id": message_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": signature(secret, message_id, timestamp, body)}
