"""The history page's fast dump of `changes` and `actor` answers exactly what their documented
nested schemas would (schemas/history.py, FastNested)."""
import itertools

from app.services.history.reads import Changes, FromTo
from app.services.history.scope import Actor
from schemas.history import ActorSchema, ChangesSchema, flat_actor, flat_changes

RESTRICTIONS = [{"attribute_id": "POSITION", "attribute_values": [{"values": [{"value_id": "1", "value_name": "A"}]}]}]


def test_fast_changes_equal_the_nested_schema_for_every_combination():
    options = [None, FromTo(None, "x"), FromTo("x", None), FromTo(RESTRICTIONS, None)]
    for note, status, restrictions in itertools.product(options, repeat=3):
        changes = Changes(note, status, restrictions)
        assert flat_changes(changes) == ChangesSchema().dump(changes)
        assert list(flat_changes(changes)) == list(ChangesSchema().dump(changes))  # key order too


def test_fast_actor_equals_the_nested_schema():
    for actor in (Actor("API", 1001, "5501"), Actor("API", 1001), Actor("IMPORT"), Actor("OPERATOR", 7)):
        assert flat_actor(actor) == ActorSchema().dump(actor)
        assert list(flat_actor(actor)) == list(ActorSchema().dump(actor))
