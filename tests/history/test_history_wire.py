"""The history page's fast dump of `changes` and `actor` answers exactly what their documented
nested schemas would (schemas/history.py, FastNested)."""
import itertools

from app.services.history.change_record import Changes, FromTo
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


def test_fast_page_equals_the_schema_for_records_of_every_kind(client, run_db, load_bundle):
    import json

    from app.services import history
    from app.services.auth import require_item
    from schemas.history import HistoryPageSchema, dump_history_page
    from tests.compat.compat_data import FRONT, SELLER_H, full_bundle, position, product, url

    load_bundle(full_bundle())
    client.post(url(), json={"products": [product("MLA90001", note="N", restrictions=position([FRONT])),
                                          product("MLA90002")]}, headers={**SELLER_H, "X-Request-Id": "r1"})
    client.put(url(), json={"update": {"products": [{"id": "MLA90001", "note": "", "restrictions": []}]}},
               headers=SELLER_H)
    client.delete(url(), headers=SELLER_H)
    client.post(url("MLA102"), json={"universal": True}, headers=SELLER_H)

    def first_page(item_id):
        return history.list_history(require_item(item_id), 50, 0)

    for item_id in ("MLA100", "MLA102"):
        page = run_db(first_page, item_id)
        assert page.items
        fast, slow = dump_history_page(page), HistoryPageSchema().dump(page)
        assert json.dumps(fast) == json.dumps(slow)
    assert client.get(url("MLA100", "/history"), headers=SELLER_H).get_json() == dump_history_page(
        run_db(first_page, "MLA100"))
