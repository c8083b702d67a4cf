"""Reading and structural validation of a bundle: the document parsed, every section through its
marshmallow schema, every problem reported as a JSON path (`products[12].domain_id: ...`)."""
import marshmallow as ma

from app.json_input import JsonInputError, loads, printable, unstorable_values
from app.services.bundle.sections import BY_NAME


class BundleError(Exception):
    """A bundle that cannot be imported; `problems` lists every one as `json.path: message`."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s) in the bundle:\n" + "\n".join(self.problems))


def read_bundle(data, max_depth):
    """The bundle in `data`, a file's bytes; BundleError with the problem at `$` when they are not
    a JSON document nested at most `max_depth` deep (app/json_input.py says what else is refused)."""
    try:
        return loads(data, max_depth)
    except JsonInputError as exc:
        raise BundleError(f"{format_path(path) or '$'}: {message}" for path, message in exc.problems) from None


def format_path(parts):
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part == ma.RAISE or part == "_schema":
            continue
        else:
            path += f".{part}" if path else str(part)
    return printable(path)


def flatten_messages(messages, parts=()):
    """marshmallow's nested {field: {index: [msg]}} messages as `path: message` strings."""
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            key_parts = parts if key == "_schema" else (*parts, key)
            out.extend(flatten_messages(value, key_parts))
        return out
    if isinstance(messages, list | tuple):
        out = []
        for message in messages:
            out.extend(flatten_messages(message, parts))
        return out
    return [f"{format_path(parts)}: {_lower_first(str(messages))}"]


def _lower_first(text):
    # marshmallow's built-in messages start with a capital and end with a dot; ours do not.
    text = text.rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def validate_structure(bundle):
    """(sections, problems, failed): each present section as its list of loaded records, with None
    in place of a record that has problems (so later checks still report the others, by index);
    `failed` holds those records as given, so references to them are not reported twice."""
    problems, sections, failed = [], {}, {}
    if not isinstance(bundle, dict):
        return {}, ["$: a bundle is a JSON object whose keys are section names"], failed
    for name, records in bundle.items():
        if name not in BY_NAME:
            problems.append(f"{printable(name)}: unknown section (known: {', '.join(BY_NAME)})")
            continue
        if records is None:
            continue
        if not isinstance(records, list):
            problems.append(f"{name}: must be a list of records")
            continue
        schema = BY_NAME[name].schema()
        fast_load = getattr(schema, "fast_load", None)
        loaded = []
        for index, record in enumerate(records):
            # The fast check declines text neither database may get, so what it passes needs no walk.
            if fast_load is not None and (fast := fast_load(record)) is not None:
                loaded.append(fast)
                continue
            bad = unstorable_values(record, (name, index), check_ints=True)
            if bad:
                # Refused whole, as a record with schema problems is: its values must not reach a query.
                problems.extend(f"{format_path(path)}: {message}" for path, message in bad)
                loaded.append(None)
                if isinstance(record, dict):
                    failed.setdefault(name, []).append(record)
                continue
            try:
                loaded.append(schema.load(record))
            except ma.ValidationError as exc:
                problems.extend(flatten_messages(exc.messages, (name, index)))
                loaded.append(None)
                if isinstance(record, dict):
                    failed.setdefault(name, []).append(record)
        sections[name] = loaded
    return sections, problems, failed

