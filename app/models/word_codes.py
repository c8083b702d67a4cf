"""Columns of one closed vocabulary (a compatibility's source, a change record's action, ...) stored as
small integers: as text, the words were written out on every compatibility and again in each of its
change records, the two largest tables. Python, the API and bundles see the words; only the tables
hold the numbers, fixed here once and for all (a stored number never changes its word).

Peewee's queries convert both ways through the field. Rows read from the driver's cursor are
decoded with the field's python_value; the bulk writers encode with `code_of`, a dict lookup done
in C, cheap on the ten million rows of a large import."""
from peewee import SmallIntegerField

from schemas.vocabulary import AUTOMATION, CATALOGO, DEFAULT, ITEM_SUGGESTIONS, NEW_VEHICLES, SELLER

SOURCES = {SELLER: 1, CATALOGO: 2}
CREATION_SOURCES = {DEFAULT: 1, ITEM_SUGGESTIONS: 2, NEW_VEHICLES: 3, AUTOMATION: 4}
ACTIONS = {"CREATE": 1, "UPDATE": 2, "DELETE": 3}
ACTOR_KINDS = {"API": 1, "IMPORT": 2, "OPERATOR": 3, "BULK": 4}


class WordCodeField(SmallIntegerField):
    """A word of `codes` ({word: number}) stored as its number; None stays NULL."""

    def __init__(self, codes, *args, **kwargs):
        self.codes = {None: None, **codes}
        self.words = {number: word for word, number in self.codes.items()}
        super().__init__(*args, **kwargs)

    @property
    def code_of(self):
        """word -> number, for rows written past peewee (a KeyError names a word of no vocabulary)."""
        return self.codes.__getitem__

    def db_value(self, value):
        if value is None or isinstance(value, int):
            return value
        try:
            return self.codes[value]
        except KeyError:
            raise ValueError(f"{self.name} is one of {', '.join(w for w in self.codes if w)}, not {value!r}") from None

    def python_value(self, value):
        """The word; a word already (a row peewee has decoded, a text left by an old schema) passes."""
        return value if value is None or isinstance(value, str) else self.words[value]
