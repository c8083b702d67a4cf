"""What the references of a bundle point to: the bundle's own records first, then the
database's, fetched in a few chunked IN queries rather than one query per reference."""
from app.models import ChartRow, CompatibilityRule, RestrictionAttribute, RestrictionValue
from app.services.bundle.sql import select_in

CHUNK = 900  # below SQLite's limit of bound variables per statement


def chunks(values, size=CHUNK):
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start:start + size]


def valid(sections, name):
    """The section's records that passed the structural checks (the others are None)."""
    return (r for r in sections.get(name, ()) if r is not None)


class Table:
    """Records of one kind by id: {id: {field: value}}; `None` for an id known to be missing."""

    def __init__(self, model, key, columns):
        self.model, self.key, self.columns = model, key, columns
        self.rows = {}
        self.wanted = set()

    def add(self, row_id, /, **fields):
        self.rows[row_id] = fields

    def want(self, key):
        self.want_all({key})

    def want_all(self, keys):
        """Reads these keys at the next fetch(), unless known or None."""
        self.wanted |= keys - self.rows.keys() - {None}

    def fetch(self):
        """Reads the wanted keys not known yet. Through select_in, not a peewee query: compiling
        IN lists and converting rows was most of the lookups of a large import."""
        wanted, self.wanted = self.wanted - self.rows.keys(), set()
        key_field = getattr(self.model, self.key)
        names = [getattr(self.model, c).name for c in self.columns]  # "site_id" -> the field "site"
        keys = [key_field.db_value(key) for key in wanted]
        rows, columns = self.rows, self.columns
        for row in select_in(self.model, [key_field.name, *names], key_field.name, keys):
            # The row holds exactly these columns (the SELECT names them): an unchecked zip over a
            # slice, cheaper than a checked zip of the unpacked row.
            rows[row[0]] = dict(zip(columns, row[1:], strict=False), in_db=True)

    def get(self, key):
        return self.rows.get(key)

    def __contains__(self, key):
        return key in self.rows


def fetch_restriction_values(pairs):
    """{(main, secondary): {attribute_id: {value_id, ...}}} stored for these domain pairs."""
    out = {}
    pairs = set(pairs)
    mains = {p[0] for p in pairs}
    for chunk in chunks(mains):
        query = (RestrictionValue
                 .select(RestrictionAttribute.main_domain, RestrictionAttribute.secondary_domain,
                         RestrictionAttribute.attribute_id, RestrictionValue.value_id)
                 .join(RestrictionAttribute)
                 .where(RestrictionAttribute.main_domain.in_(chunk)).tuples())
        for main, secondary, attribute_id, value_id in query:
            if (main, secondary) in pairs:
                out.setdefault((main, secondary), {}).setdefault(attribute_id, set()).add(value_id)
    return out


def fetch_row_owners(row_ids):
    """{chart row id: chart id} for rows already stored."""
    owners = {}
    for chunk in chunks(row_ids):
        owners.update(ChartRow.select(ChartRow.id, ChartRow.chart).where(ChartRow.id.in_(chunk)).tuples())
    return owners


def fetch_compatible_domains(domain_ids):
    """{item-side domain: {compatible domain, ...}} stored in the domain compatibility rules."""
    out = {}
    for chunk in chunks(domain_ids):
        query = CompatibilityRule.select(CompatibilityRule.domain, CompatibilityRule.compatible_domain).where(
            CompatibilityRule.domain.in_(chunk)).tuples()
        for domain, compatible in query:
            out.setdefault(domain, set()).add(compatible)
    return out
