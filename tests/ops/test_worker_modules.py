"""What a web worker holds (issue 34: memory per worker): the task queue's client, huey, which imports
redis-py whatever its storage, and redis-py itself are loaded by the process that first uses them,
not by every worker at start."""
from tests.helpers import python_json

PROBE = """
import json, sys
import wsgi
steps = {}
def loaded(step):
    steps[step] = sorted(name for name in ("huey", "redis") if name in sys.modules)
assert wsgi.app.test_cli_runner().invoke(args=["db", "upgrade"]).exit_code == 0
client = wsgi.app.test_client()
assert client.get("/health").status_code == 200
assert client.get("/sites").status_code == 200
loaded("read")
if sys.argv[1] == "enqueue":
    wsgi.app.extensions["bulk_queue"].huey  # what J1's enqueue builds first
    loaded("enqueue")
print(json.dumps(steps))
"""


def probe(tmp_path, step, **env):
    return python_json(["-c", PROBE, step], DATABASE_URL=f"sqlite:///{tmp_path}/worker.db", **env)


def test_a_worker_that_reads_holds_neither_the_queue_nor_redis_until_it_enqueues(tmp_path):
    assert probe(tmp_path, "enqueue") == {"read": [], "enqueue": ["huey", "redis"]}


def test_counts_kept_in_redis_load_redis_at_start(tmp_path):
    assert probe(tmp_path, "read", RATELIMIT_STORAGE_URI="redis://127.0.0.1:6379/15") == {"read": ["redis"]}
