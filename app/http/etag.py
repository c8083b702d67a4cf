"""ETags of an item's compatibility state (extensions.md H2, H3) on flask-smorest's ETag support.

flask-smorest's `etag` decorator, `set_etag` and `check_etag` do the work (hashing, 304, 412,
the ETag header and its documentation); what differs from its defaults is said here once:
- If-Match is optional (H3): no 428 when it is missing, and the OpenAPI parameter says so.
- POST writes check If-Match too, and DELETE answers the new ETag.
- The check runs inside the service's write transaction, right after the item is locked
  (app/services/history/state.py, item_locked), so two writers holding the same ETag cannot
  both pass it; flask-smorest's "check_etag was not called" warning does not apply.
"""
import functools

from flask import current_app, g, request
from flask_smorest.etag import IF_MATCH_HEADER
from flask_smorest.exceptions import NotModified, PreconditionFailed

from app.errors import ApiError
from app.services import history

OPTIONAL_IF_MATCH = {**IF_MATCH_HEADER, "required": False,
                     "description": "An ETag of the item's compatibilities (from endpoint 12 or a write's "
                                    "answer): the write is refused with 412 `precondition_failed`, "
                                    "writing nothing, unless it is still the current one"}
PRECONDITION_FAILED = ("The item's compatibilities changed since the ETag sent in If-Match; read them "
                       "again (GET /items/{item_id}/compatibilities) and retry with the new ETag")


class ItemStateEtagMixin:
    METHODS_NEEDING_CHECK_ETAG = ["POST", "PUT", "PATCH", "DELETE"]
    METHODS_ALLOWING_SET_ETAG = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]

    def _check_precondition(self):
        """If-Match is optional (H3): no 428 Precondition Required."""

    def _verify_check_etag(self):
        """The check runs in the service's transaction, and only when If-Match was sent."""

    def _check_not_modified(self, etag):
        # A 304 still names the current tag (RFC 9110, 15.4.5); the error handler answers it as is.
        if request.method in self.METHODS_CHECKING_NOT_MODIFIED and etag in request.if_none_match:
            response = current_app.response_class(status=304)
            response.set_etag(etag)
            raise NotModified(response=response)

    def _prepare_etag_doc(self, doc, doc_info, **kwargs):
        doc = super()._prepare_etag_doc(doc, doc_info, **kwargs)
        doc.get("responses", {}).pop(428, None)
        return doc

    def _refuse_unless_current(self, etag_data):
        try:
            self.check_etag(etag_data)
        except PreconditionFailed:
            raise ApiError("precondition_failed", PRECONDITION_FAILED) from None

    def compat_write(self, view):
        """Declares a compatibility write of the item in the path: it runs in a change scope (the
        history's actor and request id, the If-Match check), and answers the ETag of the state
        it committed, taken inside its transaction (a later writer's state is never claimed)."""

        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            scope = history.ChangeScope(
                history.Actor(history.API, g.caller_id, g.get("client_id")), g.get("request_id"),
                precondition=self._refuse_unless_current if request.if_match else None,
                record=current_app.config["HISTORY_ENABLED"])
            with history.change_scope(scope):
                response = view(*args, **kwargs)
                etag_data = history.write_etag(kwargs["item_id"])
            if etag_data is not None:
                self.set_etag(etag_data)
            return response

        return self.etag(wrapper)
