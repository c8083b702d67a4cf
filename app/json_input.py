"""JSON from strangers: request bodies and catalog bundles, read without a traceback whatever the bytes.

`loads` refuses, as a JsonInputError, what `json.loads` would crash on or let through to the database:
bytes that are not UTF-8, nesting deeper than a limit (json's C parser recurses, and each level costs
the sender two bytes), integers longer than Python converts (4,300 digits, a ValueError), NaN, Infinity and
numbers beyond a double (not JSON; PostgreSQL's json refuses them). `unstorable_values` finds, with
their paths, what one database would store and the other refuse: NUL characters (PostgreSQL text cannot
hold them, SQLite can), lone surrogates (neither driver encodes them), integers past 64 bits. Plain
Python, so that the HTTP layer and the importer share it.
"""
import itertools
import json
import math
import re
import sys

from schemas.bundle_fields import UNSTORABLE

# Outside strings, [ and { count +1, ] and } -1; every other byte but the quote is dropped.
_BRACKETS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_SKELETON = bytes(b for b in range(256) if b not in b'[{]}"')
# What a string may hold only as an escape once the bytes decoded as UTF-8: NUL and surrogates.
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")
INT64 = (-(2 ** 63), 2 ** 63 - 1)


class JsonInputError(ValueError):
    """A document that cannot be read; `problems` as (path parts, message), the path () for now."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("; ".join(message for _, message in self.problems))


def nested_deeper_than(data, limit):
    """Whether arrays and objects in the JSON document `data` (bytes) nest deeper than `limit`, in a
    few passes at C speed (bytes methods, itertools.accumulate): no recursion, whatever the depth."""
    # Without escaped backslashes and quotes, every quote opens or closes a string. Two quotes in a
    # row toggle twice around nothing, so dropping them leaves only strings that hold brackets,
    # few enough to cut out piece by piece.
    skeleton = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_SKELETON)
    skeleton = skeleton.replace(b'""', b"")
    if b'"' in skeleton:
        skeleton = b"".join(skeleton.split(b'"')[::2])
    if b"[" * (limit + 1) in skeleton or b"{" * (limit + 1) in skeleton:  # the usual attack, found at once
        return True
    return max(itertools.accumulate(memoryview(skeleton.translate(_BRACKETS)).cast("b")), default=0) > limit


def _refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number: send a number or null")


def _read_int(digits):
    limit = sys.get_int_max_str_digits()
    if limit and len(digits.lstrip("-")) > limit:
        raise ValueError(f"a number has {len(digits.lstrip('-'))} digits; send numbers of at most {limit}")
    return int(digits)


def _read_float(text):
    number = float(text)
    if math.isinf(number):
        raise ValueError(f"the number {text[:40]} is beyond what a double holds; send a smaller one")
    return number


# What `loads` decodes with, for a reader that decodes a document's values one at a time (J1's rows).
DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_read_int, parse_float=_read_float)


def _where(doc, pos):
    line = doc.count("\n", 0, pos) + 1
    return f"line {line}, column {pos - (doc.rfind(chr(10), 0, pos) + 1) + 1}"


def loads(data, max_depth):
    """The JSON document in `data` (bytes or str); JsonInputError when it is none."""
    if isinstance(data, bytes):
        try:
            # A byte order mark, as Windows editors write, is skipped (RFC 8259 allows it).
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            at = exc.start + len(data) - len(exc.object)  # exc.object lacks a byte order mark
            raise _invalid(f"not UTF-8 text: byte {at} (0x{data[at]:02x}) cannot be decoded; "
                           "send a JSON document encoded as UTF-8") from None
    else:
        text, data = data, data.encode("utf-8", "surrogatepass")
    if nested_deeper_than(data, max_depth):
        raise _invalid(f"arrays and objects are nested more than {max_depth} levels deep; send a "
                       f"document nested at most {max_depth} levels deep")
    try:
        return DECODER.decode(text)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Unterminated string"):  # no closing quote before the end
            raise _invalid(f"the JSON document ends inside the string that starts at {_where(text, exc.pos)}: "
                           "is it truncated?") from None
        if exc.pos >= len(text.rstrip()):
            raise _invalid(f"the JSON document ends before it is complete ({exc.msg} at "
                           f"{_where(text, exc.pos)}): is it truncated?") from None
        raise _invalid(f"not valid JSON: {exc.msg} at {_where(text, exc.pos)}") from None
    except (ValueError, RecursionError) as exc:  # a huge integer, NaN; recursion is the backstop
        raise _invalid(f"not valid JSON: {exc}") from None


def _invalid(message):
    return JsonInputError([((), message)])


def might_hold_bad_text(data):
    """False when the JSON text `data` (bytes) surely holds no NUL and no lone surrogate,
    which can only arrive as \\u escapes once it decoded as UTF-8: a scan at C speed that spares
    nearly every document the walk of `unstorable_values`."""
    return _SUSPECT_ESCAPE.search(data) is not None


def unstorable_values(value, base=(), check_ints=False, limit=100):
    """(path parts, message) of each string, key included, holding a NUL character or a lone
    surrogate and, with `check_ints`, of each integer outside the signed 64-bit range of both
    databases' BIGINT; at most `limit`. An explicit stack, not recursion."""
    problems, stack = [], [(value, base)]
    while stack and len(problems) < limit:
        node, path = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                if isinstance(key, str) and UNSTORABLE.search(key):
                    problems.append(((*path, key), _text_problem(key, "the key")))
                stack.append((child, (*path, key)))
        elif isinstance(node, list):
            stack.extend((child, (*path, index)) for index, child in enumerate(node))
        elif isinstance(node, str):
            if UNSTORABLE.search(node):
                problems.append((path, _text_problem(node, "the text")))
        elif check_ints and type(node) is int and not INT64[0] <= node <= INT64[1]:
            problems.append((path, f"{_shorten(node)} does not fit a 64-bit integer "
                                   f"({INT64[0]} to {INT64[1]})"))
    return sorted(problems, key=lambda problem: [(0, p, "") if isinstance(p, int) else (1, 0, str(p))
                                                 for p in problem[0]])


def printable(text):
    """`text` with its NUL characters and surrogates written as \\u escapes, so that a path or a
    message naming them can be printed and sent as UTF-8."""
    return UNSTORABLE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _text_problem(text, what):
    if "\x00" in text:
        return (f"{what} contains a NUL character (\\u0000), which PostgreSQL cannot store; "
                "remove it")
    return (f"{what} contains a lone UTF-16 surrogate (\\ud800-\\udfff without its pair), which is "
            "not a character; send the character itself, or both halves of its surrogate pair")


def _shorten(number):
    return str(number) if abs(number) < 10 ** 40 else f"an integer of {number.bit_length()} bits"
