"""Helpers shared by the demo data modules: stable value ids, dates, item attributes."""
import datetime as dt
import hashlib
import uuid

# The demo's "now". Every date is laid out before it, so a build never depends on the clock.
DEMO_NOW = dt.datetime(2026, 1, 20, 12, 0, 0)


def iso(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def moment_between(rng, start: dt.datetime, end: dt.datetime) -> dt.datetime:
    return start + dt.timedelta(seconds=rng.randrange(int((end - start).total_seconds())))


# Milliseconds since the epoch at DEMO_NOW, the time part of every demo key.
_DEMO_MS = int(DEMO_NOW.replace(tzinfo=dt.UTC).timestamp() * 1000)


def stable_uuid(rng) -> str:
    """A version-7 UUID stamped with DEMO_NOW and random otherwise, like the keys the service makes
    (app/models/base.py): random keys spread over the whole range would put the service's own, made
    later and greater than DEMO_NOW's, between two demo keys instead of at the right edge of the
    primary key's index, where PostgreSQL packs its pages instead of splitting them in halves."""
    bits = rng.getrandbits(128) & ((1 << 74) - 1)  # the same draw as before: later values stay as they were
    rand_a, rand_b = bits >> 62, bits & ((1 << 62) - 1)
    return str(uuid.UUID(int=(_DEMO_MS << 80) | (7 << 76) | (rand_a << 64) | (2 << 62) | rand_b))


class ValueIds:
    """Numeric value ids, one per (attribute, value name).

    Ids come from a hash of the name rather than from a counter, so adding a model to a table does
    not renumber every value after it. Each attribute draws from its own range so that one id never
    names two different things."""

    RANGES = {"BRAND": (60000, 61999), "MODEL": (62000, 69999), "SHORT_VERSION": (1000000, 4999999),
              "ENGINE": (5000000, 5999999), "FUEL_TYPE": (91000, 91999)}
    DEFAULT_RANGE = (7000000, 7999999)
    # Real marketplace ids, the ones the import-format examples use.
    KNOWN = {("BRAND", "Volkswagen"): "60249", ("BRAND", "Toyota"): "60297",
             ("BRAND", "Ford"): "60279", ("MODEL", "Gol"): "62109"}

    def __init__(self):
        self._ids = dict(self.KNOWN)
        self._taken = {(attr, value) for (attr, _), value in self.KNOWN.items()}

    def get(self, attribute: str, name: str) -> str:
        key = (attribute, name)
        if key not in self._ids:
            low, high = self.RANGES.get(attribute, self.DEFAULT_RANGE)
            span = high - low + 1
            digest = hashlib.blake2b(f"{attribute}\0{name}".encode(), digest_size=8).digest()
            offset = int.from_bytes(digest, "big") % span
            while (attribute, str(low + offset)) in self._taken:
                offset = (offset + 1) % span
            self._ids[key] = str(low + offset)
            self._taken.add((attribute, self._ids[key]))
        return self._ids[key]


def item_attribute(attr_id, name, value_name, value_id=None, value_type="string"):
    """An item attribute in the import format's shape (value_id null for free text)."""
    return {"id": attr_id, "name": name, "value_id": value_id, "value_name": value_name,
            "values": [{"id": value_id, "name": value_name, "struct": None}], "value_type": value_type}
