"""ETags of an item's compatibility state (extensions.md H2, H3) on flask-smorest's ETag support.

flask-smorest's `etag` decorator and `set_etag` do the work (hashing, the ETag header and its
documentation); what differs from its defaults is said here once:
- If-Match is optional (H3): no 428 when it is missing, and the OpenAPI parameter says so.
- POST writes check If-Match too, and DELETE answers the new ETag.
- Tags are compared as RFC 9110 (13.1.1, 13.1.2) says, whatever the content coding of the answer
  that carried them (app/http/compression.uncoded): If-Match strongly (a weak tag never matches),
  If-None-Match weakly; `*` and lists of tags as werkzeug parses them.
- The check runs inside the service's write transaction, right after the item is locked
  (app/services/history/state.py, item_locked), so two writers holding the same ETag cannot
  both pass it; flask-smorest's "check_etag was not called" warning does not apply.
"""
import functools

from flask import current_app, g, request
from flask_smorest.etag import IF_MATCH_HEADER
from flask_smorest.exceptions import NotModified

from app.errors import ApiError
from app.http.compression import uncoded
from app.services import history

OPTIONAL_IF_MATCH = {**IF_MATCH_HEADER, "required": False,
                     "description": "An ETag of the item's compatibilities (from endpoint 12, gzipped or "
                                    "not, or a write's answer): the write is refused with 412 `precondition_failed`, "
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
        if request.method not in self.METHODS_CHECKING_NOT_MODIFIED:
            return
        matched = matching(request.if_none_match, etag, weak=True)
        if matched is not None:
            # A 304 names the tag a 200 would have (RFC 9110, 15.4.5): the one the client holds,
            # in its coding, made strong. The error handler answers the response as is.
            response = current_app.response_class(status=304)
            response.set_etag(matched)
            raise NotModified(response=response)

    def _prepare_etag_doc(self, doc, doc_info, **kwargs):
        doc = super()._prepare_etag_doc(doc, doc_info, **kwargs)
        doc.get("responses", {}).pop(428, None)
        return doc

    def _refuse_unless_current(self, etag_data):
        if matching(request.if_match, self._generate_etag(etag_data), weak=False) is None:
            raise ApiError("precondition_failed", PRECONDITION_FAILED)

    def item_compatibility_write(self, view):
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
                etag_data = history.write_etag(kwargs["item"].id)
            if etag_data is not None:
                self.set_etag(etag_data)
            return response

        return self.etag(wrapper)


def matching(tags, current, weak):
    """The tag of an If-Match or If-None-Match (`tags`, as werkzeug parses it) that names the
    `current` validator, unquoted, or None. `*` names it; weak tags count only when `weak`; an
    empty tag (`""`, which werkzeug reads as None) names nothing."""
    if tags.star_tag:
        return current
    for tag in tags.as_set(include_weak=weak):
        if tag and uncoded(tag) == current:
            return tag
    return None
