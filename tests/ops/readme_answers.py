"""The README's walk-throughs as data: their blocks, each command with the answer shown for it, and
the rule that compares a printed answer with a shown one.

The convention (README "Calling it"): a walk-through is a ```sh block that sets
`API=localhost:${PORT:-8000}`. A command's answer is shown on the comment line after it, `# → ` and
then the answer; lines that follow starting `#   ` continue it. The answer is JSON (or several JSON
values, one per printed line), or plain text when it is not JSON. `…` elides:
- as an array element: any number of elements there (`[a, …]`: the list starts with a);
- as an object member (`{"id":"x", …}`): the object may have more keys (without it, exactly these);
- as a value (`"attributes":…`): any value;
- inside a string (`"…:1"`), and in a plain-text answer: any characters.
Everything else is compared exactly (key sets, list lengths, values and their types).
"""
import json
import re
from dataclasses import dataclass, field

ELLIPSIS = "…"
ANSWER, MORE = "# → ", "#   "
API_LINE = "API=localhost:${PORT:-8000}"
# What `…` stands for once the shown answer is read as JSON (private-use characters: no real value has them).
ANY = "\ue000any"
REST = "\ue000rest"


@dataclass
class Step:
    """The code up to a shown answer (its last command prints the answer), and that answer."""
    code: list
    answer: str
    line: int  # the answer's line in README.md

    def command(self):
        """The first line of the last command (continuation lines are indented)."""
        lines = [c for c in self.code if c.strip() and not c.startswith((" ", "#"))]
        return lines[-1] if lines else ""


@dataclass
class Block:
    line: int  # the block's first line in README.md
    lines: list
    steps: list = field(default_factory=list)
    tail: list = field(default_factory=list)  # code after the last answer: must print nothing


def sh_blocks(text):
    """(first line number, lines) of every ```sh block."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if current is None and line.strip() == "```sh":
            current, start = [], number + 1
        elif current is not None and line.strip() == "```":
            blocks.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def walk_throughs(text):
    """The walk-through blocks, in README order, cut into steps."""
    found = []
    for start, lines in sh_blocks(text):
        if not any(line.startswith(API_LINE) for line in lines):
            continue
        block, code, index = Block(start, lines), [], 0
        while index < len(lines):
            line = lines[index]
            if line.startswith(ANSWER):
                answer, first = [line[len(ANSWER):]], start + index
                while index + 1 < len(lines) and lines[index + 1].startswith(MORE):
                    index += 1
                    answer.append(lines[index][len(MORE):])
                block.steps.append(Step(code, "\n".join(answer), first))
                code = []
            else:
                code.append(line)
            index += 1
        block.tail = code
        found.append(block)
    return found


def _shown_as_json(text):
    """The shown answer with each bare `…` replaced by a JSON stand-in (ANY, or a REST member)."""
    out, stack, in_string, escaped, key_expected = [], [], False, False, False
    for char in text:
        if in_string:
            out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == ELLIPSIS:
            out.append(f'"{REST}":0' if key_expected else f'"{ANY}"')
            key_expected = False
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            stack.append(char)
        elif char in "}]" and stack:
            stack.pop()
        if not char.isspace():
            key_expected = (char == "{") or (char == "," and bool(stack) and stack[-1] == "{")
        out.append(char)
    return "".join(out)


def json_values(text):
    """Every JSON value in text, in order (whitespace between them); ValueError when text is not that."""
    decoder, values, position, text = json.JSONDecoder(), [], 0, text.strip()
    while position < len(text):
        value, position = decoder.raw_decode(text, position)
        values.append(value)
        while position < len(text) and text[position].isspace():
            position += 1
    if not values:
        raise ValueError("no JSON value")
    return values


def _glob(pattern, text):
    parts = [re.escape(part) for part in pattern.split(ELLIPSIS)]
    return re.fullmatch(".*".join(parts), text, re.DOTALL) is not None


def _brief(value):
    text = json.dumps(value, ensure_ascii=False).replace(ANY, ELLIPSIS)
    return text if len(text) <= 160 else text[:157] + "..."


def differences(shown, actual, path="$"):
    """Where the answer printed differs from the answer shown (empty when it matches)."""
    if shown == ANY:
        return []
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return [f"{path}: shown an object, answered {_brief(actual)}"]
        found = [f"{path}.{key}: missing" for key in shown if key != REST and key not in actual]
        for key, value in shown.items():
            if key != REST and key in actual:
                found += differences(value, actual[key], f"{path}.{key}")
        extra = sorted(set(actual) - set(shown))
        if extra and REST not in shown:
            found.append(f"{path}: keys not shown (add them, or `…`): {', '.join(extra)}")
        return found
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return [f"{path}: shown a list, answered {_brief(actual)}"]
        if _list_matches(shown, actual):
            return []
        if ANY not in shown and len(shown) == len(actual):
            pairs = enumerate(zip(shown, actual, strict=True))
            return [d for n, (s, a) in pairs for d in differences(s, a, f"{path}[{n}]")]
        return [f"{path}: shown {_brief(shown)}, answered {_brief(actual)}"]
    if isinstance(shown, str) and ELLIPSIS in shown:
        ok = isinstance(actual, str) and _glob(shown, actual)
        return [] if ok else [f"{path}: shown {_brief(shown)}, answered {_brief(actual)}"]
    same_kind = type(shown) is type(actual) or (_is_number(shown) and _is_number(actual))
    if not same_kind or shown != actual:
        return [f"{path}: shown {_brief(shown)}, answered {_brief(actual)}"]
    return []


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _list_matches(shown, actual):
    """Element-wise, an ANY element standing for any number of elements."""
    memo = {}

    def match(i, j):
        if (i, j) not in memo:
            if i == len(shown):
                memo[i, j] = j == len(actual)
            elif shown[i] == ANY:
                memo[i, j] = any(match(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                memo[i, j] = j < len(actual) and not differences(shown[i], actual[j]) and match(i + 1, j + 1)
        return memo[i, j]

    return match(0, 0)


def compare(shown_text, printed):
    """Problems of a printed answer against the shown one: JSON when the shown answer is JSON, else text."""
    try:
        shown = json_values(_shown_as_json(shown_text))
    except ValueError:
        flat = " ".join(printed.split())
        return [] if _glob(" ".join(shown_text.split()), flat) else [f"shown {shown_text!r}, printed {flat!r}"]
    try:
        actual = json_values(printed)
    except ValueError:
        return [f"shown JSON, printed {printed.strip()[:300]!r}"]
    if len(shown) != len(actual):
        return [f"shown {len(shown)} JSON value(s), printed {len(actual)}: {printed.strip()[:300]!r}"]
    return [d for s, a in zip(shown, actual, strict=True) for d in differences(s, a)]
