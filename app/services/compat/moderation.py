"""Note moderation, an operator's command (decisions.md): a note becomes APPROVED or CHECKED
and is then shown to buyers. Each item's notes change in one transaction that locks the item,
records the change (actor OPERATOR) and gives the item a new ETag, like any other write."""
from app.db import write_transaction
from app.models import Compatibility
from app.services import history
from app.services.compat.context import lock_item
from app.services.compat.store import IN_CHUNK, chunks
from app.services.row_keys.lookups import item_id_of

MODERATED = ("APPROVED", "CHECKED", "PENDING")


class ModerationError(ValueError):
    """A moderation that cannot be done (an operator's mistake, not an API error)."""


def moderate_notes(compatibility_ids, status):
    """Sets the note_status of these compatibilities' notes; answers how many changed.
    ModerationError for an unknown id or one without a note; nothing is written then."""
    if status not in MODERATED:
        raise ModerationError(f"note status must be one of {', '.join(MODERATED)}")
    ids = list(dict.fromkeys(compatibility_ids))
    rows = {}
    for chunk in chunks(ids, IN_CHUNK):
        rows.update((cid, (item_id, note)) for cid, item_id, note in Compatibility.select(
            Compatibility.id, item_id_of(Compatibility.item), Compatibility.note).where(Compatibility.id.in_(chunk))
            .tuples())
    missing = [cid for cid in ids if cid not in rows]
    if missing:
        raise ModerationError(f"no compatibility {', '.join(missing)}")
    without_note = [cid for cid in ids if not rows[cid][1]]
    if without_note:
        raise ModerationError(f"compatibility {', '.join(without_note)} has no note")
    by_item = {}
    for cid in ids:
        by_item.setdefault(rows[cid][0], []).append(cid)
    changed = 0
    with write_transaction():
        for item_id, item_ids in sorted(by_item.items()):
            lock_item(item_id)
            with history.recording_updates(item_id, compatibility_ids=item_ids):
                for chunk in chunks(item_ids, IN_CHUNK):
                    changed += (Compatibility.update(note_status=status)
                                .where(Compatibility.id.in_(chunk), Compatibility.note_status != status).execute())
    return changed
