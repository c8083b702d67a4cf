"""J1's JSON form, `{"rows": [row, ...]}`, read in one pass over the spooled body: the outer object
and the rows array are walked here, a key or a row at a time, and each is decoded by json's C
decoder with app.json_input's rules (no NaN or Infinity, no integer past Python's digit limit, no
number beyond a double). A top-level key other than `rows` is refused as it comes, without a pass of
its own over the parser's events, and no more than one row and a chunk of text is held at once."""
import contextlib
import io
import json
import re

from app.errors import ApiError
from app.json_input import DECODER
from app.services.bulk.problems import invalid

CHUNK = 256 * 1024
_SPACE = re.compile(r"[ \t\n\r]*")


class _Text:
    """The body's text and a position in it, read a chunk at a time as values need it."""

    def __init__(self, file):
        self.stream = io.TextIOWrapper(file, encoding="utf-8-sig", newline="")
        self.text, self.pos, self.ended = "", 0, False

    def close(self):
        """Leaves the spooled file open for its owner to close (it may have closed it already)."""
        with contextlib.suppress(ValueError):
            self.stream.detach()

    def more(self):
        """Reads the next chunk; False at the end of the body."""
        try:
            chunk = self.stream.read(CHUNK) if not self.ended else ""
        except UnicodeDecodeError as exc:
            raise _malformed(f"the body is not UTF-8 text ({exc.reason}); send JSON encoded as UTF-8") from None
        if not chunk:
            self.ended = True
            return False
        self.text, self.pos = self.text[self.pos:] + chunk, 0
        return True

    def peek(self):
        """The next character past white space ('' at the end), not consumed."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def take(self, allowed, where):
        """The next character, one of `allowed`; 400 otherwise."""
        char = self.peek()
        if not char or char not in allowed:
            found = f"'{char}'" if char else "the end of the body"
            raise _malformed(f"{where}: expected {' or '.join(repr(c) for c in allowed)}, found {found}")
        self.pos += 1
        return char

    def value(self, where):
        """The JSON value that starts here. A value cut by the chunk's end is decoded again with
        the next chunk (a number that ends the text may go on in it)."""
        self.peek()
        while True:
            try:
                value, end = DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                if _cut(exc, self.text) and self.more():
                    continue
                raise _malformed(f"{where}: {exc.msg}") from None
            except (ValueError, RecursionError) as exc:  # a huge integer, NaN; recursion is the backstop
                raise _malformed(f"{where}: {exc}") from None
            if end == len(self.text) and self.more():
                continue
            self.pos = end
            return value


def _cut(exc, text):
    """Whether the decoder stopped where the text ends (within an escape's length of it, or in a
    string that the text ends inside): the value may go on in the next chunk. Anything else is an
    error wherever the chunk ends, found without reading further."""
    return exc.pos >= len(text) - 6 or exc.msg.startswith("Unterminated string")


def _malformed(detail):
    return invalid("invalid_json", f"Invalid JSON body: {detail}", "json")


def _unknown_key(key):
    return ApiError("validation_error", f"Invalid request. Unknown field {key}: a JSON body is "
                    '{"rows": [...]}', [{"code": "unknown_field", "message": "Unknown field.", "field": key}])


def json_rows(file):
    """Each row of the body, in order, as decoded (the caller checks them)."""
    text = _Text(file)
    try:
        yield from _rows(text)
    finally:
        text.close()


def _rows(text):
    count = 0
    text.take("{", "the body")
    if text.peek() == "}":
        text.pos += 1
    else:
        while True:
            if text.peek() != '"':
                text.take('"', "the body's object")
            key = text.value("a key of the body")
            text.take(":", f"after the key {key}")
            if key != "rows":
                raise _unknown_key(key)
            count = yield from _array(text, count)
            if text.take(",}", "the body's object") == "}":
                break
    if text.peek():
        raise _malformed("the body goes on after its object ends")


def _array(text, number):
    """Yields the rows of the array that starts here, numbered on from `number`; answers the last number."""
    text.take("[", "rows")
    if text.peek() == "]":
        text.pos += 1
        return number
    while True:
        number += 1
        yield text.value(f"row {number}")
        if text.take(",]", f"after row {number}") == "]":
            return number
