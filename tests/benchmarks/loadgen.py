"""Load generation from a separate process over loopback: wrk when installed, else this module's
own multi-process Python generator (`python -m tests.benchmarks.loadgen SPEC.json`).

A scenario is a list of requests (method, path, JSON body or None[, extra headers]) sent round-robin; connections
share the list without sending the same entry twice until it wraps, so a pool of distinct writes
stays distinct while the pool lasts. Both generators answer the same dict: requests, seconds,
rps, p50_ms, p99_ms, errors (non-2xx answers and socket errors).
"""
import http.client
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time

LUA = r"""
local entries = {
%(entries)s
}
local token, step = %(token)s, %(threads)d
local formatted, counter = {}, 0
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
end

function init(args)
  counter = tid
  local headers = {["Content-Type"] = "application/json", ["Host"] = "127.0.0.1"}
  if token ~= "" then headers["Authorization"] = "Bearer " .. token end
  for i, e in ipairs(entries) do
    local h = {}
    for k, v in pairs(headers) do h[k] = v end
    if e[4] then for k, v in pairs(e[4]) do h[k] = v end end
    formatted[i] = wrk.format(e[1], e[2], h, e[3])
  end
end

function request()
  local r = formatted[(counter %% #formatted) + 1]
  counter = counter + step
  return r
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "us": %%d, "p50_us": %%d, "p99_us": %%d, "errors": %%d, "status_errors": %%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
"""


def _lua_string(text):
    level = "=" * 4
    assert f"]{level}]" not in text
    return f"[{level}[{text}]{level}]"


def _lua_headers(request):
    extra = request[3] if len(request) > 3 else None
    if not extra:
        return ""
    # "[ [==[" with spaces: "[[" would open a Lua long string.
    return ", {" + ", ".join(f"[ {_lua_string(k)} ] = {_lua_string(v)}" for k, v in extra.items()) + "}"


def wrk_available():
    return shutil.which("wrk") is not None


def run_wrk(port, requests, token, duration, connections):
    threads = min(2, connections)
    entries = ",\n".join(f"{{{_lua_string(r[0])}, {_lua_string(r[1])}, "
                         f"{'nil' if r[2] is None else _lua_string(json.dumps(r[2]))}{_lua_headers(r)}}}"
                         for r in requests)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(LUA % {"entries": entries, "token": _lua_string(token or ""), "threads": threads})
    try:
        out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s",
                              "--timeout", "10s", "-s", f.name, f"http://127.0.0.1:{port}"],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    raw = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:])
    seconds = raw["us"] / 1e6
    return {"requests": raw["requests"], "seconds": seconds, "rps": raw["requests"] / seconds,
            "p50_ms": raw["p50_us"] / 1000, "p99_ms": raw["p99_us"] / 1000,
            "errors": raw["errors"] + raw["status_errors"], "generator": "wrk"}


def run_python(port, requests, token, duration, connections):
    """Runs this module in a child process, which forks one process per connection."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"port": port, "requests": requests, "token": token, "duration": duration,
                   "connections": connections}, f)
    try:
        out = subprocess.run([sys.executable, "-m", "tests.benchmarks.loadgen", f.name],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    return json.loads(out.strip().splitlines()[-1])


def _connection_loop(args):
    spec, index, deadline = args
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    if spec["token"]:
        headers["Authorization"] = "Bearer " + spec["token"]
    bodies = [(r[0], r[1], None if r[2] is None else json.dumps(r[2]).encode(), r[3] if len(r) > 3 else None)
              for r in spec["requests"]]
    latencies, errors, counter, step = [], 0, index, spec["connections"]
    while time.perf_counter() < deadline:
        method, path, body, extra = bodies[counter % len(bodies)]
        counter += step
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=10)
            conn.request(method, path, body=body, headers={**headers, **(extra or {})})
            response = conn.getresponse()
            response.read()
            conn.close()
            errors += not 200 <= response.status < 400
        except OSError:
            errors += 1
        latencies.append(time.perf_counter() - started)
    return latencies, errors


def percentile(sorted_values, fraction):
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main(path):
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    started = time.perf_counter()
    deadline = started + spec["duration"]
    with multiprocessing.Pool(spec["connections"]) as pool:
        results = pool.map(_connection_loop, [(spec, i, deadline) for i in range(spec["connections"])])
    seconds = time.perf_counter() - started
    latencies = sorted(value for values, _ in results for value in values)
    print(json.dumps({"requests": len(latencies), "seconds": seconds, "rps": len(latencies) / seconds,
                      "p50_ms": percentile(latencies, 0.5) * 1000, "p99_ms": percentile(latencies, 0.99) * 1000,
                      "errors": sum(e for _, e in results), "generator": "python"}))


if __name__ == "__main__":
    main(sys.argv[1])
