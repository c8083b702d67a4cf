"""J1's body read as a stream: spooled to a temporary file (on disk past a megabyte) while it is
counted and hashed, then its rows read one at a time, from JSON (`{rows: [...]}`), JSON Lines or
CSV, each checked against the row schema. The first problem is a 400 that names its line or row."""
import hashlib
import tempfile
from dataclasses import dataclass

from marshmallow import ValidationError

from app.errors import ApiError
from app.json_input import JsonInputError, loads, might_hold_bad_text, printable, unstorable_values
from app.services.bulk.csv_form import csv_rows
from app.services.bulk.json_form import json_rows
from app.services.bulk.problems import invalid, too_many
from schemas.bulk import CSV_TYPE, NDJSON_TYPES, BulkRowSchema, plainly_valid

SPOOL_IN_MEMORY = 1024 * 1024
CHUNK = 256 * 1024
JSON, NDJSON, CSV = "json", "ndjson", "csv"
ROW_SCHEMA = BulkRowSchema()


@dataclass
class Body:
    """A spooled body: its file (at its start), its form, and the hash that idempotency compares."""

    file: object
    form: str
    sha256: str
    suspect_text: bool  # may hold NUL characters or lone surrogates (then each row is checked)


def form_of(mimetype):
    if mimetype == CSV_TYPE:
        return CSV
    return NDJSON if mimetype in NDJSON_TYPES else JSON


def spool(stream, mimetype, max_bytes):
    """Reads the request body to its end; 413 past `max_bytes`."""
    form = form_of(mimetype)
    file = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 (submit_job closes it)
    digest = hashlib.sha256(form.encode() + b"\n")
    size, suspect, tail = 0, False, b""
    while chunk := stream.read(CHUNK):
        size += len(chunk)
        if size > max_bytes:
            file.close()
            raise ApiError("request_entity_too_large",
                           f"Request body too large: a bulk job takes at most {max_bytes} bytes (BULK_MAX_BYTES); "
                           "split it into several jobs")
        digest.update(chunk)
        file.write(chunk)
        # The tail of the previous chunk: an escape may be cut in two.
        suspect = suspect or b"\x00" in chunk or might_hold_bad_text(tail + chunk)
        tail = chunk[-6:]
    file.seek(0)
    return Body(file, form, digest.hexdigest(), suspect)


def read_rows(body, max_rows, attribute_ids):
    """(row number, item id, row) of each row, in order; `attribute_ids` are the columns a CSV may
    name a family by."""
    if body.form == CSV:
        rows = csv_rows(body.file, max_rows, attribute_ids)
    elif body.form == NDJSON:
        rows = _ndjson_rows(body.file, max_rows)
    else:
        rows = _json_rows(body.file, max_rows)
    count = 0
    for number, where, row in rows:
        if body.suspect_text:
            _refuse_unstorable(row, where)
        count += 1
        yield number, row["item_id"], row
    if not count:
        raise invalid("validation_error", "The body has no rows: send at least one", "rows")


def _flatten(messages, path):
    if isinstance(messages, dict):
        for key, value in messages.items():
            yield from _flatten(value, path if key == "_schema" else f"{path}.{key}")
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        for message in messages:
            yield path, message
    else:
        for value in messages:
            yield from _flatten(value, path)


def _checked(row, where, field):
    """The row as the schema loads it; 400 `validation_error` naming the row and its fields."""
    if plainly_valid(row):
        return row
    if not isinstance(row, dict):
        raise invalid("validation_error", f"{where}: a row is a JSON object", field)
    try:
        return ROW_SCHEMA.load(row)
    except ValidationError as exc:
        causes = [{"code": "required" if m == "Missing data for required field." else "invalid",
                   "message": m, "field": f} for f, m in _flatten(exc.messages, field)]
        summary = "; ".join(f"{c['field']}: {c['message']}" for c in causes[:5])
        raise ApiError("validation_error", f"Invalid request. {where}: {summary}", causes) from None


def _refuse_unstorable(row, where):
    problems = unstorable_values(row)
    if problems:
        path, message = problems[0]
        field = printable(".".join(map(str, path)))
        raise ApiError("invalid_characters", f"{where}: the row holds text that cannot be stored, in {field}: "
                       f"{message}", [{"code": "invalid_characters", "field": field, "message": message}])


def _json_rows(file, max_rows):
    start = file.read(64).lstrip()
    file.seek(0)
    if not start.lstrip(b"\xef\xbb\xbf").startswith(b"{"):
        raise invalid("invalid_json", "Invalid JSON body: send {\"rows\": [...]} (or JSON Lines with Content-Type "
                       "application/x-ndjson, or CSV with text/csv)", "json")
    for index, row in enumerate(json_rows(file)):
        if index >= max_rows:
            raise too_many(max_rows, f"row {index + 1}")
        yield index + 1, f"row {index + 1}", _checked(row, f"row {index + 1}", f"rows.{index}")


def _ndjson_rows(file, max_rows):
    count = 0
    for number, line in enumerate(file, 1):
        if not line.strip():
            continue
        count += 1
        if count > max_rows:
            raise too_many(max_rows, f"line {number}")
        try:
            row = loads(line, 64)
        except JsonInputError as exc:
            raise invalid("invalid_json", f"line {number}: invalid JSON: {exc}", f"line {number}") from None
        yield number, f"line {number}", _checked(row, f"line {number}", f"line {number}")
