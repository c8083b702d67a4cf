"""Contract and fuzz tests: schemathesis drives every operation of the app's own OpenAPI document.

For each operation, a bounded number of generated requests (valid ones, then invalid ones), sent
with seller 1001's token to an app loaded with a bit of every area. Path parameters are often
swapped for identifiers that exist, so the requests reach past "not found". Every check the
installed schemathesis registers runs on every answer (`schemathesis.checks`: no 500, documented
statuses, content types, headers and bodies, invalid data refused and valid data accepted, the
auth and resource checks), and the few the spec itself overrides are dropped one by one in
tests/http/schemathesis_hooks.py, each with its rule. A third pass adds `callback=cb` to every
request: the JSONP answer must wrap a well-formed [status, headers, body] whose status the
operation documents, with no 500 inside.

CONTRACT_EXAMPLES sets the examples per operation and pass: 4 in the default run, which keeps the whole
suite's time down; `.ci/run` then runs this file again with 12.
"""
import json
import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS as REGISTERED_CHECKS
from schemathesis.checks import load_all_checks, not_a_server_error
from schemathesis.core.parameters import ParameterLocation

from tests.bundles import SELLER, TOKENS
from tests.helpers import bearer
from tests.http import schemathesis_hooks
from tests.http.everything_data import everything_bundle
from tests.reads_data import MLA100_COMPATS, ORDER_CONFIRMED, ORDER_NO_CLAIMS, UNIVERSAL_ID

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", 4))
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
    """With `callback`, the real status hides inside the body: check it there, against the
    statuses the operation documents."""
    if not response.headers.get("content-type", [""])[0].startswith("text/javascript"):
        return None
    match = JSONP.match(response.text)
    assert match, f"malformed JSONP body: {response.text[:200]}"
    status, headers, body = json.loads(match.group(2))
    JSONP_SEEN.append(status)
    assert isinstance(status, int) and isinstance(headers, dict), response.text[:200]
    assert status != 500, f"500 inside JSONP: {body}"
    documented = {str(code) for code in case.operation.definition.raw.get("responses", {})}
    assert str(status) in documented or "default" in documented, f"undocumented {status} inside JSONP: {body}"
    if status >= 400:
        assert {"message", "error", "status", "cause"} <= set(body), body
    return True


load_all_checks()
ALL_CHECKS = [*(check for check in REGISTERED_CHECKS.get_all() if not isinstance(check, type)),
              jsonp_wraps_a_well_formed_answer]
JSONP_CHECKS = [not_a_server_error, jsonp_wraps_a_well_formed_answer]


def with_known_identifiers(strategy, mode):
    drawn = st.fixed_dictionaries({name: st.one_of(st.none(), st.sampled_from(values))
                                   for name, values in KNOWN.items()})

    def swap(pair):
        case, values = pair
        if case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH):
            return case  # the invalid part is in the path: keep it
        for name, value in values.items():
            if value is not None and name in (case.path_parameters or {}):
                case.path_parameters[name] = value
        return case

    return st.tuples(strategy, drawn).map(swap)


def run_operation(operation, mode, jsonp=False):
    """Runs the examples of one operation; (examples run, failure text or None)."""
    ran = [0]
    generation = GenerationMode.POSITIVE if jsonp else mode

    @given(case=with_known_identifiers(operation.as_strategy(generation_mode=generation), generation))
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    def run(case):
        ran[0] += 1
        if jsonp:
            case.query = {**(case.query or {}), "callback": "cb"}
        # schemathesis sends requests' Accept-Encoding: gzip but, calling the app in-process, does not
        # decompress what it gets; gzip itself is tested in tests/clients/test_requests.py.
        case.call_and_validate(headers={**bearer(TOKENS[SELLER]), "Accept-Encoding": "identity"},
                               checks=JSONP_CHECKS if jsonp else ALL_CHECKS)

    try:
        run()
    except (Exception, BaseExceptionGroup) as exc:  # hypothesis re-raises the first failing check
        message = str(exc)
        if "Unable to satisfy assumptions" in message:  # nothing invalid can be made of it
            return ran[0], None
        return ran[0], message
    return ran[0], None


@pytest.fixture
def api_schema(app, load_bundle):
    load_bundle(everything_bundle())
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


@pytest.mark.parametrize("mode", ["valid", "invalid", "jsonp"])
def test_every_operation_keeps_its_documented_contract(api_schema, mode, database_url):
    failures, examples, operations = [], 0, 0
    JSONP_SEEN.clear()
    schemathesis_hooks.DROPPED.clear()
    generation = GenerationMode.NEGATIVE if mode == "invalid" else GenerationMode.POSITIVE
    for result in api_schema.get_all_operations():
        operation = result.ok()
        ran, failure = run_operation(operation, generation, jsonp=mode == "jsonp")
        examples += ran
        operations += 1
        if failure:
            failures.append(f"== {operation.label}\n{failure}")
    print(f"\n[{database_url.split(':')[0]} {mode}] schemathesis: {examples} examples over {operations} "
          f"operations, {len(ALL_CHECKS if mode != 'jsonp' else JSONP_CHECKS)} checks "
          f"({len(JSONP_SEEN)} JSONP answers unwrapped and checked; failures dropped by a spec rule: "
          f"{dict(schemathesis_hooks.DROPPED)}), {len(failures)} failing")
    assert operations >= 30
    if mode == "jsonp":
        assert len(JSONP_SEEN) == examples
    assert not failures, "\n\n".join(failures)
