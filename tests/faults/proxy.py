"""nginx in the foreground, configured with the shipped site file (app/deploy/nginx.conf) in front of
a gunicorn; every path it writes (pid, logs, request bodies) is under the test's directory."""
import os
import shutil
import subprocess
import time

import pytest

from app.deploy.nginx import render
from tests.faults.wire import exchange
from tests.gunicorn_util import free_port

# Only what a test run needs around the site file; nginx's packaged nginx.conf plays this part in
# production.
MAIN = """{user}
daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log info;
events {{ worker_connections 1024; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/site.conf;
}}
"""


def nginx_binary():
    """nginx's path; CI installs it (.ci/run), elsewhere its absence skips, unless REQUIRE_NGINX=1."""
    found = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(path, os.X_OK)), None)
    if found is None:
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail("nginx required (REQUIRE_NGINX=1) but not installed")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return found


class Nginx:
    """`with Nginx(directory, upstream="127.0.0.1:PORT") as nginx:` listens on 127.0.0.1:nginx.port."""

    def __init__(self, directory, upstream, max_body_bytes=1048576):
        self.dir = os.path.join(str(directory), "nginx")
        os.makedirs(self.dir, exist_ok=True)
        self.port = free_port()
        with open(os.path.join(self.dir, "site.conf"), "w") as f:
            f.write(render(f"127.0.0.1:{self.port}", upstream, max_body_bytes))
        # nginx started by root runs its worker as `nobody`, which cannot enter pytest's directories.
        user = "user root;" if os.geteuid() == 0 else ""
        with open(os.path.join(self.dir, "nginx.conf"), "w") as f:
            f.write(MAIN.format(dir=self.dir, user=user))
        self.process = None

    def __enter__(self):
        with open(os.path.join(self.dir, "stderr.log"), "wb") as stderr:
            self.process = subprocess.Popen(
                [nginx_binary(), "-p", self.dir, "-e", os.path.join(self.dir, "error.log"),
                 "-c", os.path.join(self.dir, "nginx.conf")], stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError("nginx exited:\n" + self.errors("stderr.log") + self.errors())
            try:
                exchange(self.port, b"GET /health HTTP/1.0\r\n\r\n", timeout=2)
                return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("nginx did not answer in time:\n" + self.errors())

    def __exit__(self, *exc_info):
        self.process.terminate()  # SIGTERM: nginx's fast shutdown
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)

    def errors(self, name="error.log"):
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            return ""
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
