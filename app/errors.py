"""The one exception type services raise (the HTTP layer turns it into the error object), its
helpers, and every error code with its status."""

# Every `error` code the API answers, by status (README "Error codes"). A view declares the codes
# it can answer by name, `@blp.errors("item_not_found", ...)`, and its documented status is the one
# here; tests/http/test_error_declarations.py checks that raises agree. `invalid_token` answers 403
# on the views whose auth says so (`blp.auth(invalid_status=403)`).
CODES = {
    400: ("validation_error", "invalid_json", "invalid_callback", "invalid_characters", "invalid_request",
          "invalid_grant",
          "unsupported_grant_type", "invalid_item_id", "invalid_arguments", "too_many_products",
          "too_many_families", "too_many_items", "too_many_compatibilities", "site_mismatch",
          "not_child_product", "domain_not_compatible", "domain_mismatch", "category_not_configured",
          "family_without_products", "item_is_universal", "item_has_compatibilities", "universal_not_allowed",
          "notes_disabled", "restrictions_disabled", "restriction_not_allowed", "repeated_restriction_attribute",
          "repeated_restriction_value", "repeated_restriction_group", "too_many_restriction_groups",
          "too_many_restriction_values", "invalid_copy_source", "copy_source_without_compatibilities",
          "item_not_active", "category_without_compatibilities", "exception_already_reported",
          "snapshot_not_found", "invalid_category", "domain_not_active", "missing_required_attributes",
          "chart_validation_error", "unknown_attribute", "repeated_attribute",
          "bad_request", "too_many_rows", "invalid_csv"),
    401: ("invalid_token", "invalid_client"),
    403: ("forbidden", "catalog_compatibility_not_deletable", "order_without_claims", "chart_read_only"),
    404: ("not_found", "user_not_found", "item_not_found", "product_not_found", "domain_not_found",
          "compatibility_not_found", "site_not_found", "currency_not_found", "config_not_found",
          "technical_specs_not_found", "chart_tech_specs_not_found", "chart_not_found", "chart_row_not_found",
          "bulk_job_not_found", "application_not_found"),
    405: ("method_not_allowed",),
    409: ("conflict", "chart_in_use", "idempotency_conflict", "bulk_job_finished"),
    412: ("precondition_failed",),
    413: ("request_entity_too_large",),
    # 414, 417, 431, 501 and 400 `bad_request` are answered before the app sees the request, by
    # gunicorn's worker (app/deploy/worker.py) or by nginx in front of it (app/deploy/nginx.conf).
    414: ("uri_too_long",),
    417: ("expectation_failed",),
    # A bulk row of an item whose other row failed: the item's rows apply together or not at all.
    424: ("item_not_applied",),
    429: ("local_rate_limited", "too_many_jobs"),
    431: ("request_header_fields_too_large",),
    500: ("internal_error",),
    501: ("not_implemented",),
    503: ("service_unavailable",),
}
STATUS = {code: status for status, codes in CODES.items() for code in codes}


class ApiError(Exception):
    """An error the API answers as the error object. Its status is the one `CODES` gives the code;
    `status` overrides it only where a rule of the spec does (`invalid_token` answers 403 on the
    compatibility writes)."""

    def __init__(self, error, message, cause=(), *, status=None, headers=None, extra=None):
        super().__init__(message)
        self.status = status or STATUS[error]
        self.error = error
        self.message = message
        self.cause = list(cause)
        self.headers = headers or {}
        # Extra top-level keys of the error object, for the few errors that document one
        # (chart_validation_error's `errors`).
        self.extra = extra or {}


def require(model, key, error, message):
    """The row of a peewee `model` whose primary key is `key`; 404 `error` with `message` when
    there is none. The one "find it or 404" of every area."""
    row = model.get_or_none(model._meta.primary_key == key)
    if row is None:
        raise ApiError(error, message)
    return row
