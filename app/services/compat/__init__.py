"""Compatibilities of an item: the family count (2), cards (6), writes (8 to 10, 16 to 19), the
summary (11), reads (12 to 15, 20) and note moderation (an operator command)."""
from app.services.compat.context import Limits
from app.services.compat.deletes import delete_all, delete_by_families, delete_one
from app.services.compat.exception import get_exception, report_exception
from app.services.compat.families import count_family_products
from app.services.compat.moderation import ModerationError, moderate_notes
from app.services.compat.reads import extended_check, get_compatibility, get_note, list_compatibilities
from app.services.compat.reports import compatibilities_summary, compatibility_cards
from app.services.compat.writes import add_compatibilities, change_compatibilities

__all__ = ["Limits", "ModerationError", "add_compatibilities", "change_compatibilities", "compatibilities_summary",
           "compatibility_cards", "count_family_products", "delete_all", "delete_by_families", "delete_one",
           "extended_check", "get_compatibility", "get_exception", "get_note", "list_compatibilities",
           "moderate_notes", "report_exception"]
