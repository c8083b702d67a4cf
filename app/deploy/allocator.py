"""glibc's malloc in a gunicorn worker: fixed thresholds instead of the ones it adapts as it runs.

glibc gives the free memory at the top of its heap back to the kernel once it exceeds a trim
threshold, and serves a request above a second threshold with mmap. Left alone, it raises both
whenever a block it had mmapped is freed, so a worker's thresholds are set by whatever its first
requests happened to allocate. A worker left with the low defaults shrinks and regrows its heap on
every request that allocates past them (SQLite's temporary b-trees for an IN list, a long JSON
answer), and each page regrown is a page fault the kernel zeroes: the same request then costs more
in that worker, for its whole life, than in a worker that began with other requests (found as the
buyer search by vehicle attributes after the search by vehicle, tests/benchmarks/README.md).

Fixed thresholds, set in gunicorn's master before it forks, make every worker alike. An operator's
own malloc tuning (GLIBC_TUNABLES' glibc.malloc.*, MALLOC_*_ variables) is left as it is; on a C
library without mallopt (musl's is a no-op, macOS has none) nothing is set."""
import ctypes
import os

# mallopt's parameter numbers (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
# Above what one request allocates and frees at once, far below a worker's size.
THRESHOLD_BYTES = 4 * 1024 * 1024


def operator_tuned(environ):
    """Whether the environment already tunes glibc's malloc."""
    return "glibc.malloc." in environ.get("GLIBC_TUNABLES", "") or any(
        name.startswith("MALLOC_") and name.endswith("_") for name in environ)


def fix_malloc_thresholds(environ=os.environ):
    """Sets both thresholds to THRESHOLD_BYTES; True when glibc took them."""
    if operator_tuned(environ):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return all([mallopt(M_TRIM_THRESHOLD, THRESHOLD_BYTES) == 1, mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES) == 1])
