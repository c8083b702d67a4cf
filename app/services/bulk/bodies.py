"""J1's body read as a stream: spooled to a temporary file (on disk past a megabyte) while it is
counted and hashed, then its rows read one at a time, from JSON (`{rows: [...]}`), JSON Lines or
CSV, each checked against the row schema. The first problem is a 400 that names its line or row."""
import csv
import hashlib
import io
import re
import tempfile
from dataclasses import dataclass

import ijson
from marshmallow import ValidationError

from app.errors import ApiError
from app.json_input import JsonInputError, loads, might_hold_bad_text, printable, unstorable_values
from schemas.bulk import ACTIONS, CSV_TYPE, NDJSON_TYPES, BulkRowSchema, plainly_valid
from schemas.compatibility_inputs import NOTE_MAX
from schemas.vocabulary import ITEM_ID_PATTERN, PRODUCT_ID_PATTERN

SPOOL_IN_MEMORY = 1024 * 1024
CHUNK = 256 * 1024
JSON, NDJSON, CSV = "json", "ndjson", "csv"
ROW_SCHEMA = BulkRowSchema()
CSV_FIXED = ("item_id", "action", "product_id", "note", "position")
_ID, _PRODUCT = re.compile(ITEM_ID_PATTERN), re.compile(PRODUCT_ID_PATTERN)


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
        rows = _csv_rows(body.file, max_rows, attribute_ids)
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
        raise _invalid("validation_error", "The body has no rows: send at least one", "rows")


def _invalid(code, message, field):
    return ApiError(code, message, [{"code": code, "message": message, "field": field}])


def _too_many(max_rows, where):
    return _invalid("too_many_rows", f"{where}: more than {max_rows} rows (BULK_MAX_ROWS); split the upload into "
                    "several jobs", where)


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
        raise _invalid("validation_error", f"{where}: a row is a JSON object", field)
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
        raise _invalid("invalid_json", "Invalid JSON body: send {\"rows\": [...]} (or JSON Lines with Content-Type "
                       "application/x-ndjson, or CSV with text/csv)", "json")
    try:
        for index, row in enumerate(ijson.items(file, "rows.item", use_float=True)):
            if index >= max_rows:
                raise _too_many(max_rows, f"row {index + 1}")
            yield index + 1, f"row {index + 1}", _checked(row, f"row {index + 1}", f"rows.{index}")
    except ijson.JSONError as exc:
        raise _invalid("invalid_json", f"Invalid JSON body: {exc}", "json") from None


def _ndjson_rows(file, max_rows):
    count = 0
    for number, line in enumerate(file, 1):
        if not line.strip():
            continue
        count += 1
        if count > max_rows:
            raise _too_many(max_rows, f"line {number}")
        try:
            row = loads(line, 64)
        except JsonInputError as exc:
            raise _invalid("invalid_json", f"line {number}: invalid JSON: {exc}", f"line {number}") from None
        yield number, f"line {number}", _checked(row, f"line {number}", f"line {number}")


def _csv_rows(file, max_rows, attribute_ids):
    """One row per item: its lines, wherever they are, in file order; `row` is its first line."""
    text = io.TextIOWrapper(file, encoding="utf-8-sig", newline="")
    reader = csv.reader(text)
    try:
        header = next(reader, None)
        if header is None:
            return
        columns = CsvColumns([h.strip() for h in header], attribute_ids)
        rows, count, end = {}, 0, reader.line_num
        for record in reader:
            line, end = end + 1, reader.line_num
            if not any(record) or not any(cell.strip() for cell in record):
                continue
            count += 1
            if count > max_rows:
                raise _too_many(max_rows, f"line {line}")
            columns.add_line(rows, line, record)
    except UnicodeDecodeError as exc:
        raise _invalid("invalid_csv", f"The CSV is not UTF-8 text ({exc.reason}); save it as UTF-8", "csv") from None
    except csv.Error as exc:
        raise _invalid("invalid_csv", f"line {reader.line_num}: {exc}", f"line {reader.line_num}") from None
    finally:
        text.detach()
    for row in rows.values():
        first = row.pop("_row")
        yield first, f"line {first}", row


class CsvColumns:
    """The header's columns by position: item_id, action, product_id or a family's attributes, note,
    position."""

    def __init__(self, names, attribute_ids):
        unknown = [n for n in names if n not in CSV_FIXED and n not in attribute_ids]
        if unknown:
            raise _invalid("invalid_csv", f"line 1: unknown column {unknown[0]}; the columns are item_id, action, "
                           "then product_id or the attributes of a vehicle domain (BRAND, MODEL, VEHICLE_YEAR...), "
                           "then optional note and position", "line 1")
        families = [(n, i) for i, n in enumerate(names) if n not in CSV_FIXED]
        if "item_id" not in names or "action" not in names or ("product_id" in names) == bool(families) \
                or len(set(names)) != len(names):
            raise _invalid("invalid_csv", "line 1: the header names item_id, action, then either product_id or "
                           "attribute columns (not both), each column once", "line 1")
        self.width, self.families = len(names), families
        self.item, self.action = names.index("item_id"), names.index("action")
        self.product = names.index("product_id") if "product_id" in names else None
        self.note = names.index("note") if "note" in names else None
        self.position = names.index("position") if "position" in names else None

    def add_line(self, rows, line, record):
        if len(record) != self.width:
            raise _invalid("invalid_csv", f"line {line}: {len(record)} fields, the header has {self.width}",
                           f"line {line}")
        item_id, action = record[self.item].strip(), record[self.action].strip().upper()
        if not _ID.match(item_id):
            raise _invalid("validation_error", f"line {line}: item_id {item_id!r} is not an item id",
                           f"line {line}.item_id")
        if action not in ACTIONS:
            raise _invalid("validation_error", f"line {line}: action must be one of {', '.join(ACTIONS)}",
                           f"line {line}.action")
        element, section = self._element(line, record)
        row = rows.get(item_id)
        if row is None:
            row = rows[item_id] = {"_row": line, "item_id": item_id, "action": action}
        elif row["action"] != action:
            raise _invalid("validation_error", f"line {line}: item {item_id} is {action} here but {row['action']} "
                           f"on line {row['_row']}; the lines of one item take one action", f"line {line}.action")
        if section in row:
            row[section].append(element)
        else:
            row[section] = [element]

    def _element(self, line, record):
        """A product ({id}) or a family ({attributes}; its vehicle domain is the item's, found when
        applied), with its note and its position (a value id or name, resolved when applied)."""
        if self.product is not None:
            product_id = record[self.product].strip()
            if not _PRODUCT.match(product_id):
                raise _invalid("validation_error", f"line {line}: product_id {product_id!r} is not a product id",
                               f"line {line}.product_id")
            element, section = {"id": product_id}, "products"
        else:
            attributes = [{"id": name, "value": value} for name, i in self.families if (value := record[i].strip())]
            if not attributes:
                raise _invalid("validation_error", f"line {line}: no attribute value names the vehicles",
                               f"line {line}")
            element, section = {"attributes": attributes}, "products_families"
        note = record[self.note].strip() if self.note is not None else ""
        if note:
            if len(note) > NOTE_MAX:
                raise _invalid("validation_error", f"line {line}: the note has more than {NOTE_MAX} characters",
                               f"line {line}.note")
            element["note"] = note
        position = record[self.position].strip() if self.position is not None else ""
        if position:
            element["position"] = position
        return element, section
