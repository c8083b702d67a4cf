"""Slow clients cannot take the service down (issue 16): in the production recipe, nginx in front of
gunicorn (app/deploy/nginx.conf), 50 connections trickling a header line every 2 s leave `/health`
answering within 1 s. Against bare gunicorn sync workers the same clients hold every worker, which is
why gunicorn listens on loopback by default and the README puts nginx in front."""
import os
import re
import subprocess
import sys
import time

import pytest

from tests.faults.proxy import Nginx
from tests.faults.wire import SlowClients, health_latency
from tests.gunicorn_util import ROOT, Gunicorn, empty_database, free_port

pytestmark = pytest.mark.slow

SLOW_CLIENTS, LINE_EVERY_S = 50, 2.0


def probe_health(port, seconds):
    """`/health` latencies over `seconds`, one request every 0.2 s (None: no answer within 1 s)."""
    latencies, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        latencies.append(health_latency(port, timeout=1))
        time.sleep(0.2)
    return latencies


def test_slow_clients_leave_health_answering_within_a_second_behind_nginx(tmp_path):
    # Two workers, fewer than the slow clients by far: nginx must be what keeps them free.
    with Gunicorn(empty_database(tmp_path), tmp_path, workers=2, FORWARDED_PROXIES=1) as gunicorn, \
            Nginx(tmp_path, f"127.0.0.1:{gunicorn.port}") as nginx:
        with SlowClients(nginx.port, SLOW_CLIENTS, LINE_EVERY_S) as slow:
            time.sleep(LINE_EVERY_S + 0.5)  # every slow client has sent a second header line
            latencies = probe_health(nginx.port, LINE_EVERY_S)
            still_open = slow.open_count()
    assert None not in latencies, latencies
    assert max(latencies) < 1.0, f"max /health latency {max(latencies):.3f} s"
    assert still_open == SLOW_CLIENTS  # they were really there, held by nginx, the whole time


def test_slow_clients_hold_every_bare_gunicorn_sync_worker(tmp_path):
    # The reason for the recipe: with no proxy, each slow client holds a sync worker until gunicorn's
    # 30 s timeout kills it, and the next slow client in the queue takes the new one.
    with Gunicorn(empty_database(tmp_path), tmp_path, workers=2) as gunicorn:
        assert health_latency(gunicorn.port, timeout=1) is not None
        with SlowClients(gunicorn.port, SLOW_CLIENTS, LINE_EVERY_S):
            time.sleep(0.5)
            blocked = health_latency(gunicorn.port, timeout=3)
    assert blocked is None


def test_gunicorn_listens_on_loopback_unless_told_otherwise(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("BIND", "PORT")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path}/empty.db"
    printed = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "python:app.gunicorn_conf", "--print-config",
                              "wsgi:app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    assert re.search(r"^bind +=  ?\['127\.0\.0\.1:8000'\]$", printed.stdout, re.MULTILINE), printed.stdout


def test_nginx_closes_a_client_that_has_not_sent_its_whole_header_within_10_s(tmp_path):
    # client_header_timeout: a slow client costs nginx a few kB for 10 s, then nothing. No gunicorn is
    # needed: a request that never completes never reaches it.
    with Nginx(tmp_path, f"127.0.0.1:{free_port()}") as nginx, SlowClients(nginx.port, 5, 1.0) as slow:
        time.sleep(9)
        held_at_9_s = slow.open_count()
        time.sleep(2)
        held_at_11_s = slow.open_count()
    assert (held_at_9_s, held_at_11_s) == (5, 0)
