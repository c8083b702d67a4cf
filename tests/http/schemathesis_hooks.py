"""The schemathesis failures the spec itself forces, dropped one by one: each exception names one
operation, one failure (by its stable code, e.g. ST202 "schema-valid request rejected", the
`positive_data_acceptance` check), the answer the spec prescribes, and the rule.

Everything else the document states; what OpenAPI 3.0 cannot state (a rule between two query
parameters) is listed here too, with the operation's description saying it. tests/http/test_contract.py
imports this module; the CLI loads it with `SCHEMATHESIS_HOOKS=tests.http.schemathesis_hooks`.
"""
import json
from collections import Counter
from dataclasses import dataclass

import schemathesis

from schemas.bulk import NDJSON_TYPES

DROPPED = Counter()  # (operation, failure code) -> failures dropped, for the test's closing figures


@dataclass(frozen=True)
class SpecException:
    operation: str  # "METHOD /path"
    code: str  # schemathesis failure code
    status: int  # the answer the spec prescribes
    errors: tuple  # its error codes (the error object's `error`)
    rule: str
    when: object = None  # a further condition, `when(case, response)`

    def covers(self, failure, case, response):
        if self.operation not in (case.operation.label, failure.operation) or failure.code != self.code:
            return False
        if response.status_code != self.status or (self.when is not None and not self.when(case, response)):
            return False
        try:
            return json.loads(response.text).get("error") in self.errors
        except (ValueError, AttributeError):
            return False


ACCEPTED = "ST202"  # positive_data_acceptance: "schema-valid request rejected"
REFUSED = "ST201"  # negative_data_rejection: "schema-violating request accepted"
MISSING_HEADER = "ST203"  # missing_required_header (Authorization: 401 expected)
UNDECLARED_METHOD = "ST204"  # unsupported_method: 405 expected
ITEM_WRITES = ("POST /items/{item_id}/compatibilities", "PUT /items/{item_id}/compatibilities",
               "DELETE /items/{item_id}/compatibilities", "POST /items/{item_id}/compatibilities/exception",
               "DELETE /items/{item_id}/compatibilities/{compatibility_id}")


def _causes(response):
    try:
        return [cause.get("field") or "" for cause in json.loads(response.text).get("cause") or ()]
    except (ValueError, AttributeError):
        return []


def _grant_type_in_query(case, response):
    return "grant_type" in (case.query or {})


def _scroll_id_at_fault(case, response):
    return _causes(response) == ["scroll_id"]


def _only_object_keys(case, response):
    """A field at fault is a key of an object (`names.<key>.key`): the request is refused for it."""
    return any(field.endswith(".key") for field in _causes(response))


def _text_upload(case, response):
    """J1's body as CSV or JSON Lines: a string to OpenAPI, whose rows the service reads itself."""
    return (getattr(case, "media_type", None) or "").split(";")[0] in ("text/csv", *NDJSON_TYPES)


def _only_creation_sources(case, response):
    fields = _causes(response)
    return bool(fields) and all(field.endswith(".creation_source") for field in fields)


def _only_map_values(case, response):
    fields = _causes(response)
    return bool(fields) and all(field.startswith("names.") for field in fields)


def _only_free_form_values(case, response):
    """Every field at fault is inside a free-form value (`struct`, `value_struct`)."""
    fields = _causes(response)
    return bool(fields) and all("struct" in field for field in fields)


def _no_single_vehicle_or_words(case, response):
    """Site search without `q` and without a vehicle, with both ways to give a vehicle, or with a
    compatibility_filter naming an attribute twice."""
    query = case.query or {}
    vehicles = [name for name in ("compatible_with", "compatibility_filter") if name in query]
    repeats = "repeats attribute" in response.text
    return len(vehicles) == 2 or (not vehicles and "q" not in query) or repeats


ITEM_STATES = ("copy_source_without_compatibilities", "invalid_copy_source", "universal_not_allowed",
               "item_is_universal", "item_has_compatibilities", "notes_disabled", "restrictions_disabled")
BUSINESS_RULES = (  # (operation, error codes, rule): a request of the right shape the data refuses (400)
    ("GET /sites/{site_id}/search", ("invalid_category", "unknown_attribute"),
     "service-spec endpoint 1: `category` is one of the site's; extensions.md B2: the filter's attributes are "
     "the site's vehicles'"),
    ("POST /catalog/charts", ("domain_not_active",), "decisions.md (size charts): a chart's domain is active"),
    ("POST /catalog/charts/search", ("domain_not_active",), "decisions.md (size charts): the domain is active"),
    ("POST /catalog_domains/{domain_id}/compatibilities/cards", ("domain_mismatch",),
     "service-spec endpoint 6: the domain is the item's or one it can be compatible with"),
    ("POST /items/catalog_domains/{domain_id}/compatibilities/cards", ("domain_mismatch",),
     "service-spec endpoint 6: the domain is the item's or one it can be compatible with"),
    # OpenAPI cannot say these body rules in a way generators take (tests/clients: openapi-python-client
    # drops the operation); the body's description says them.
    ("POST /items/{item_id}/compatibilities", ("invalid_arguments",),
     "service-spec endpoint 8 (universal table): at least one of products, products_groups, products_families or "
     "universal, and if universal no products; item_to_copy alone (endpoint 9)"),
    ("PUT /items/{item_id}/compatibilities", ("invalid_arguments",),
     "service-spec endpoint 10 with 8's create rules: universal with no products"),
    ("POST /items/{item_id}/compatibilities", ITEM_STATES,
     "service-spec endpoints 8 and 9 (universal and copy tables): these states of the items answer 400"),
    ("PUT /items/{item_id}/compatibilities", ITEM_STATES,
     "service-spec endpoint 10 (with endpoint 9's copy): these states of the items answer 400"),
)

EXCEPTIONS = (
    *(SpecException(operation, ACCEPTED, 400, ("validation_error",),
                    "service-spec endpoint 8: creation_source is required on every created element "
                    "(or the body's default)",
                    when=_only_creation_sources)
      for operation in ("POST /items/{item_id}/compatibilities", "PUT /items/{item_id}/compatibilities")),
    *(SpecException(operation, ACCEPTED, 400, errors, rule) for operation, errors, rule in BUSINESS_RULES),
    SpecException("GET /users/{seller_id}/items/search", ACCEPTED, 400, ("validation_error",),
                  "the marketplace's scan: a scroll_id names an open scan of the user (5 minutes after its last "
                  "page); any other answers 400", when=_scroll_id_at_fault),
    # The body's grant_type is required unless the query string carries it (the operation's description).
    SpecException("POST /oauth/token", REFUSED, 200, (None,),
                  "RFC 6749 / the operation: a parameter may come in the query string instead of the body",
                  when=_grant_type_in_query),
    # A write without a token answers 403, not 401 (the spec's error tables).
    *(SpecException(operation, MISSING_HEADER, 403, ("invalid_token",),
                    "service-spec, errors of endpoints 8 to 19: '403 Invalid token, or no permission on the item'")
      for operation in ITEM_WRITES),
    # A path that another operation's template also matches answers as that operation.
    # (named by the declared operation whose path the undeclared method was sent to)
    SpecException("POST /items/compatibilities_summary", UNDECLARED_METHOD, 404, ("item_not_found",),
                  "GET there is GET /items/{item_id} (endpoint 3) for an item id 'compatibilities_summary', unknown"),
    SpecException("POST /catalog/charts/search", UNDECLARED_METHOD, 404, ("chart_not_found",),
                  "GET there is GET /catalog/charts/{chart_id} (decisions.md charts) for a chart 'search', unknown"),
    SpecException("POST /catalog/charts/search", UNDECLARED_METHOD, 400, ("validation_error",),
                  "PUT there is PUT /catalog/charts/{chart_id} (decisions.md charts) for a chart 'search', whose body "
                  "is checked first"),
    # OpenAPI 3.0 has no rule between two query parameters; the operation's parameters say it in words.
    SpecException("GET /sites/{site_id}/search", ACCEPTED, 400, ("validation_error",),
                  "extensions.md B1/B2: q is required unless a vehicle is given, by compatible_with or "
                  "compatibility_filter, not both; a filter names each attribute once",
                  when=_no_single_vehicle_or_words),
    # If-Match holding another tag than the item's: the precondition fails, whatever the body.
    *(SpecException(operation, ACCEPTED, 412, ("precondition_failed",),
                    "extensions.md H3 and RFC 9110 13.1.1: If-Match not matching the current ETag answers 412")
      for operation in ITEM_WRITES),
    SpecException("POST /items/{item_id}/compatibilities/exception", ACCEPTED, 400,
                  ("item_has_compatibilities", "item_not_active", "category_without_compatibilities",
                   "exception_already_reported"),
                  "service-spec endpoint 19: 'All 400: item is closed or inactive; item has existing compatibilities; "
                  "item category has no compatibilities; item already has a compatibility exception'"),
    SpecException("GET /compats-snapshots/orders/{order_id}", ACCEPTED, 400, ("snapshot_not_found",),
                  "service-spec endpoint 21: 400 'Compatibility snapshot for the order id not found' "
                  "(the order is not valid)"),
    SpecException("POST /compatibilities/bulk", ACCEPTED, 400, ("invalid_csv", "invalid_json"),
                  "extensions.md J1: a CSV or NDJSON upload whose columns or lines are not the format's "
                  "answers 400; OpenAPI types neither text format"),
    SpecException("POST /compatibilities/bulk", ACCEPTED, 400, ("validation_error",),
                  "extensions.md J1: the body holds at least one row; a CSV or NDJSON text without one (empty, "
                  "a header alone) is refused, which a string schema cannot say", when=_text_upload),
    *(SpecException(operation, ACCEPTED, 400, ("chart_validation_error",),
                    "decisions.md (size charts): a row must fit the chart's sheet, which the chart's domain defines")
      for operation in ("POST /catalog/charts", "POST /catalog/charts/{chart_id}/rows",
                        "PUT /catalog/charts/{chart_id}/rows/{row_id}")),
    SpecException("POST /domains/{domain_id}/technical_specs", ACCEPTED, 400, ("missing_required_attributes",),
                  "service-spec endpoint 24 / decisions.md: every attribute the sheet tags grid_template_required "
                  "is sent"),
    # OpenAPI 3.0 cannot constrain an object's keys (propertyNames is 3.1's), nor forbid a NUL inside a
    # free-form value (a size chart's `struct`): the two refusals, each only for such a field.
    *(SpecException(operation, ACCEPTED, 400, ("validation_error",),
                    "decisions.md (size charts): `names` maps site ids (3 letters) to names",
                    when=_only_object_keys)
      for operation in ("POST /catalog/charts", "PUT /catalog/charts/{chart_id}")),
    # Not the spec's: schemathesis' positive generation does not keep to the pattern of a map's values
    # (`names`: NUL-free, documented), and sends a NUL the document already forbids.
    *(SpecException(operation, ACCEPTED, 400, ("invalid_characters",),
                    "the document's own pattern on names' values (the generator does not apply it)",
                    when=_only_map_values)
      for operation in ("POST /catalog/charts", "PUT /catalog/charts/{chart_id}")),
    *(SpecException(operation, ACCEPTED, 400, ("invalid_characters",),
                    "DESIGN.md (every feature on both databases): no NUL in a body's text, which PostgreSQL "
                    "cannot store (app/json_input.py)", when=_only_free_form_values)
      for operation in ("POST /catalog/charts/search", "POST /catalog/charts/{chart_id}/rows",
                        "PUT /catalog/charts/{chart_id}/rows/{row_id}", "POST /domains/{domain_id}/technical_specs",
                        "POST /catalog/charts/domains/search", "POST /catalog/charts",
                        "PUT /catalog/charts/{chart_id}")),
    SpecException("POST /catalog_domains/{domain_id}/attributes/{attribute_id}/top_values", ACCEPTED, 400,
                  ("unknown_attribute",), "extensions.md F2: an attribute the domain does not have answers 400"),
    SpecException("POST /catalog_compatibilities/products_search/chunks", ACCEPTED, 400,
                  ("site_mismatch", "unknown_attribute"),
                  "extensions.md F3: site_id must be the domain's, and attributes the domain's (400)"),
    SpecException("POST /items/{item_id}/check_compatibility", ACCEPTED, 400, ("unknown_attribute",),
                  "extensions.md B3 (B2's partial vehicle): an attribute the site's vehicles do not have is a 400"),
)


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    """J1's JSON Lines body: one row a line (the document describes the rows as an array)."""
    if isinstance(value, str):  # the document's example: the lines themselves
        return value.encode()
    rows = value if isinstance(value, list) else [value]
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


@schemathesis.hook
def filter_failure(context, failure, case, response):
    for exception in EXCEPTIONS:
        if exception.covers(failure, case, response):
            DROPPED[f"{exception.operation} {exception.code}"] += 1
            return False
    return True
