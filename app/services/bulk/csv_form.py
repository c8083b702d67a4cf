"""J1's CSV form: a header naming item_id, action, then product_id or a family's attribute columns, then
note and position; one line per item and vehicle, an item's lines making one row."""
import csv
import io
import re

from app.services.bulk.problems import invalid, too_many
from schemas.bulk import ACTIONS
from schemas.compat import NOTE_MAX
from schemas.vocabulary import ITEM_ID_PATTERN, PRODUCT_ID_PATTERN

CSV_FIXED = ("item_id", "action", "product_id", "note", "position")
_ID, _PRODUCT = re.compile(ITEM_ID_PATTERN), re.compile(PRODUCT_ID_PATTERN)


def csv_rows(file, max_rows, attribute_ids):
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
                raise too_many(max_rows, f"line {line}")
            columns.add_line(rows, line, record)
    except UnicodeDecodeError as exc:
        raise invalid("invalid_csv", f"The CSV is not UTF-8 text ({exc.reason}); save it as UTF-8", "csv") from None
    except csv.Error as exc:
        raise invalid("invalid_csv", f"line {reader.line_num}: {exc}", f"line {reader.line_num}") from None
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
            raise invalid("invalid_csv", f"line 1: unknown column {unknown[0]}; the columns are item_id, action, "
                           "then product_id or the attributes of a vehicle domain (BRAND, MODEL, VEHICLE_YEAR...), "
                           "then optional note and position", "line 1")
        families = [(n, i) for i, n in enumerate(names) if n not in CSV_FIXED]
        if "item_id" not in names or "action" not in names or ("product_id" in names) == bool(families) \
                or len(set(names)) != len(names):
            raise invalid("invalid_csv", "line 1: the header names item_id, action, then either product_id or "
                           "attribute columns (not both), each column once", "line 1")
        self.width, self.families = len(names), families
        self.item, self.action = names.index("item_id"), names.index("action")
        self.product = names.index("product_id") if "product_id" in names else None
        self.note = names.index("note") if "note" in names else None
        self.position = names.index("position") if "position" in names else None

    def add_line(self, rows, line, record):
        if len(record) != self.width:
            raise invalid("invalid_csv", f"line {line}: {len(record)} fields, the header has {self.width}",
                           f"line {line}")
        item_id, action = record[self.item].strip(), record[self.action].strip().upper()
        if not _ID.match(item_id):
            raise invalid("validation_error", f"line {line}: item_id {item_id!r} is not an item id",
                           f"line {line}.item_id")
        if action not in ACTIONS:
            raise invalid("validation_error", f"line {line}: action must be one of {', '.join(ACTIONS)}",
                           f"line {line}.action")
        element, section = self._element(line, record)
        row = rows.get(item_id)
        if row is None:
            row = rows[item_id] = {"_row": line, "item_id": item_id, "action": action}
        elif row["action"] != action:
            raise invalid("validation_error", f"line {line}: item {item_id} is {action} here but {row['action']} "
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
                raise invalid("validation_error", f"line {line}: product_id {product_id!r} is not a product id",
                               f"line {line}.product_id")
            element, section = {"id": product_id}, "products"
        else:
            attributes = [{"id": name, "value": value} for name, i in self.families if (value := record[i].strip())]
            if not attributes:
                raise invalid("validation_error", f"line {line}: no attribute value names the vehicles",
                               f"line {line}")
            element, section = {"attributes": attributes}, "products_families"
        note = record[self.note].strip() if self.note is not None else ""
        if note:
            if len(note) > NOTE_MAX:
                raise invalid("validation_error", f"line {line}: the note has more than {NOTE_MAX} characters",
                               f"line {line}.note")
            element["note"] = note
        position = record[self.position].strip() if self.position is not None else ""
        if position:
            element["position"] = position
        return element, section
