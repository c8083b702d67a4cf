"""Contract and fuzz tests: schemathesis drives every operation of the app's own OpenAPI document.

For each operation, a bounded number of generated requests (valid ones, then invalid ones), sent
with seller 1001's token to an app loaded with a bit of every area. Path parameters are often
swapped for identifiers that exist, so the requests reach past "not found". Checks: no 500, every
status and content type is documented, every JSON body matches its documented schema, and a JSONP
answer wraps a well-formed [status, headers, body] with no 500 inside.

CONTRACT_EXAMPLES (default 12) sets the examples per operation and mode.
"""
import json
import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.bundles import SELLER, TOKENS
from tests.helpers import bearer
from tests.http.everything_data import everything_bundle
from tests.reads_data import MLA100_COMPATS, ORDER_CONFIRMED, ORDER_NO_CLAIMS, UNIVERSAL_ID

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", 12))
# Identifiers that exist in everything_bundle(), drawn for path parameters about half the time.
KNOWN = {"item_id": ["MLA100", "MLA101", "MLA102", "MLA103", "MLA200", "MLB300"],
         "compatibility_id": [*MLA100_COMPATS.values(), UNIVERSAL_ID],
         "order_id": [str(ORDER_CONFIRMED), str(ORDER_NO_CLAIMS)],
         "chart_id": ["300", "100", "301"], "row_id": ["300:1", "300:2"],
         "site_id": ["MLA", "MLB", "MLU"],
         "domain_id": ["MLA-BRAKE_PADS", "MLA-SNEAKERS", "SNEAKERS", "MLA-CARS_AND_VANS"],
         "currency_id": ["ARS"], "seller_id": [str(SELLER), "1002"],
         "attribute_id": ["BRAND", "MODEL", "VEHICLE_YEAR"], "product_id": ["MLA90001", "MLA8001"]}
JSONP_SEEN = []  # the real statuses found inside JSONP answers, for the closing figures
JSONP = re.compile(r"^/\*\*/([A-Za-z_$][\w$.]*)\((.*)\);$", re.S)


@schemathesis.check
def jsonp_wraps_a_well_formed_answer(ctx, response, case):
    """With `callback`, the real status hides inside the body: check it there."""
    if not response.headers.get("content-type", [""])[0].startswith("text/javascript"):
        return None
    match = JSONP.match(response.text)
    assert match, f"malformed JSONP body: {response.text[:200]}"
    status, headers, body = json.loads(match.group(2))
    JSONP_SEEN.append(status)
    assert isinstance(status, int) and isinstance(headers, dict), response.text[:200]
    assert status != 500, f"500 inside JSONP: {body}"
    if status >= 400:
        assert {"message", "error", "status", "cause"} <= set(body), body
    return True


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, jsonp_wraps_a_well_formed_answer]


def with_known_identifiers(strategy):
    drawn = st.fixed_dictionaries({name: st.one_of(st.none(), st.sampled_from(values))
                                   for name, values in KNOWN.items()})

    def swap(pair):
        case, values = pair
        for name, value in values.items():
            if value is not None and name in (case.path_parameters or {}):
                case.path_parameters[name] = value
        return case

    return st.tuples(strategy, drawn).map(swap)


def run_operation(operation, mode):
    """Runs the examples of one operation; (examples run, failure text or None)."""
    ran = [0]

    @given(case=with_known_identifiers(operation.as_strategy(generation_mode=mode)))
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    def run(case):
        ran[0] += 1
        # schemathesis sends requests' Accept-Encoding: gzip but, calling the app in-process, does not
        # decompress what it gets; gzip itself is tested in tests/clients/test_requests.py.
        case.call_and_validate(headers={**bearer(TOKENS[SELLER]), "Accept-Encoding": "identity"}, checks=CHECKS)

    try:
        run()
    except Exception as exc:  # hypothesis re-raises the first failing check with its request
        message = str(exc)
        if "Unable to satisfy assumptions" in message:  # nothing invalid can be made of it
            return ran[0], None
        return ran[0], message
    return ran[0], None


@pytest.fixture
def api_schema(app, load_bundle):
    load_bundle(everything_bundle())
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
def test_every_operation_keeps_its_documented_contract(api_schema, mode, database_url):
    failures, examples, operations = [], 0, 0
    JSONP_SEEN.clear()
    for result in api_schema.get_all_operations():
        operation = result.ok()
        ran, failure = run_operation(operation, mode)
        examples += ran
        operations += 1
        if failure:
            failures.append(f"== {operation.label}\n{failure}")
    print(f"\n[{database_url.split(':')[0]} {mode.value}] schemathesis: {examples} examples over "
          f"{operations} operations ({len(JSONP_SEEN)} JSONP answers unwrapped and checked), "
          f"{len(failures)} failing")
    assert operations >= 30
    assert not failures, "\n\n".join(failures)
