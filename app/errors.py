"""The one exception type services raise; the HTTP layer turns it into the error object."""


class ApiError(Exception):
    def __init__(self, status, error, message, cause=(), headers=None, extra=None):
        super().__init__(message)
        # Extra top-level keys of the error object, for the few errors that document one
        # (chart_validation_error's `errors`).
        self.extra = extra or {}
        self.status = status
        self.error = error
        self.message = message
        self.cause = list(cause)
        self.headers = headers or {}


def bad_request(error, message, cause=()):
    return ApiError(400, error, message, cause)


def not_found(error, message):
    return ApiError(404, error, message)


def forbidden(message, error="forbidden"):
    return ApiError(403, error, message)


def require(model, key, error, message):
    """The row of a peewee `model` whose primary key is `key`; 404 `error` with `message` when
    there is none. The one "find it or 404" of every area."""
    row = model.get_or_none(model._meta.primary_key == key)
    if row is None:
        raise not_found(error, message)
    return row
