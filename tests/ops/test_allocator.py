"""A gunicorn worker's malloc thresholds are fixed (app/deploy/allocator.py): a request that
allocates and frees a megabyte costs no page faults, whatever the worker ran before."""
import ctypes

import pytest

from app.deploy.allocator import operator_tuned
from tests.helpers import python_json

try:
    HAS_GLIBC = hasattr(ctypes.CDLL(None), "gnu_get_libc_version")
except OSError:
    HAS_GLIBC = False
pytestmark = pytest.mark.skipif(not HAS_GLIBC, reason="the thresholds are glibc malloc's")

UNTUNED = {"GLIBC_TUNABLES": "", "SCHEMA_CHECK": "warn"}
# A megabyte in blocks malloc serves itself (above Python's small-object allocator), freed at once,
# a hundred times, in a process that has freed no large block yet (glibc's thresholds as they start):
# the page faults of the loop, after one round that grows the heap.
CHURN = """
import json, resource
def churn():
    blocks = [bytes(4000) for _ in range(256)]
    del blocks
churn()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(100):
    churn()
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before))
"""
# The module loaded as a file of its own: importing the `app` package first would load the whole
# service, whose imports free large blocks and move glibc's thresholds before the loop runs.
LOAD = ("import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('allocator', 'app/deploy/allocator.py')\n"
        "allocator = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(allocator)\n")
FIX = LOAD + "assert allocator.fix_malloc_thresholds()\n"


def faults(prelude, **env):
    return python_json(["-c", prelude + CHURN], **env)


def test_fixed_thresholds_keep_the_heap_from_shrinking_and_regrowing():
    # The control: the low thresholds glibc starts with trim and regrow the heap on every round.
    assert faults(LOAD, **UNTUNED) > 2000
    assert faults(FIX, **UNTUNED) < 100


def gunicorn_conf_fixed(**env):
    return python_json(["-c", "import json, app.gunicorn_conf as c; print(json.dumps(c.malloc_thresholds_fixed))"],
                       **env)


def test_gunicorn_master_fixes_them_when_it_reads_its_configuration():
    # What gunicorn's master runs before it forks a worker, and so what every worker inherits.
    assert gunicorn_conf_fixed(**UNTUNED)
    assert not gunicorn_conf_fixed(**{**UNTUNED, "MALLOC_TRIM_THRESHOLD_": "131072"})


def test_an_operators_own_malloc_tuning_is_kept():
    assert operator_tuned({"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=1048576"})
    assert operator_tuned({"MALLOC_TRIM_THRESHOLD_": "1048576"})
    assert not operator_tuned({"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2"})
    assert not operator_tuned({"MALLOC": "x", "MALLOCX_": "y"})
    # The operator's own (low) threshold stays: the heap churns as they asked.
    assert faults(FIX.replace("assert ", "assert not "), **{**UNTUNED, "MALLOC_TRIM_THRESHOLD_": "131072"}) > 2000
