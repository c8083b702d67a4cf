"""What a buyer may see of a compatibility: its note once moderated (decisions.md), its restrictions."""
from app.models import Compatibility
from app.services.compat.reads import VISIBLE_NOTE_STATUSES


def buyer_note(note, note_status):
    """The note, or None while it is not APPROVED or CHECKED (buyers never see a pending note)."""
    return note if note and note_status in VISIBLE_NOTE_STATUSES else None


def buyer_restrictions(stored):
    """Stored restrictions as a list; a raw column value (read through a derived table) is decoded."""
    if isinstance(stored, (str, bytes)):
        stored = Compatibility.restrictions.python_value(stored)
    return list(stored or ())
