"""The deployment as written down (app/deploy/, README "Operating and deploying"), checked by the tools
that will read it: systemd's unit files by `systemd-analyze verify`, the nginx site by `nginx -t` and a
running nginx beside a default site, with TLS on a certificate made here, and a backup restored by
`db restore` holding what `catalog export` showed before, on both databases."""
import json
import os
import pathlib
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time

import click
import pytest

from app.config import load_settings
from app.deploy.nginx import render
from tests.bundle_data import full_bundle
from tests.faults.proxy import MAIN, nginx_binary
from tests.faults.wire import exchange
from tests.gunicorn_util import ROOT, app_env, flask_cli, free_port, fresh_database, load_database
from tests.helpers import BACKENDS

DEPLOY = pathlib.Path(ROOT) / "app" / "deploy"
UNITS = sorted((DEPLOY / "systemd").iterdir())
INSTALLED = "/srv/listings"  # where the unit files expect the checkout


def systemd_analyze():
    """The tool's path; CI installs it (.ci/run), elsewhere its absence skips, unless REQUIRE_SYSTEMD=1."""
    if shutil.which("systemd-analyze") is None:
        (pytest.fail if os.environ.get("REQUIRE_SYSTEMD") == "1" else pytest.skip)(
            "systemd-analyze is not installed (apt-get install systemd; REQUIRE_SYSTEMD=1 makes this a failure)")
    return shutil.which("systemd-analyze")


def test_the_unit_files_pass_systemd_analyze_verify(tmp_path):
    """As installed: the checkout's paths in place of /srv/listings (verify checks that each command exists)."""
    tool = systemd_analyze()
    venv_bin = os.path.dirname(sys.executable)
    for unit in UNITS:
        text = unit.read_text().replace(f"{INSTALLED}/.venv/bin/", venv_bin + "/").replace(INSTALLED, ROOT)
        (tmp_path / unit.name).write_text(text)
    result = subprocess.run([tool, "verify", *sorted(p.name for p in tmp_path.iterdir())], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
    names = {unit.name for unit in UNITS}
    assert {"listings-web.service", "listings-worker.service", "listings-purge.timer", "listings-backup.timer"} <= names
    assert all(name.replace(".timer", ".service") in names for name in names if name.endswith(".timer"))


def exec_lines(unit):
    return [shlex.split(line.split("=", 1)[1]) for line in unit.read_text().splitlines()
            if re.match(r"ExecStart(Post)?=", line)]


def test_every_command_the_units_run_exists(app):
    """What a unit runs is a command of this code, with options it takes (the worker comes with the
    task queue: it is checked once the code has it)."""
    checked = 0
    for unit in UNITS:
        for argv in exec_lines(unit):
            if argv[1:] == ["-m", "app.serve"]:
                assert (pathlib.Path(ROOT) / "app" / "serve.py").exists()
            elif argv[0].endswith("/flask"):
                assert argv[1:3] == ["--app", "wsgi"], unit.name
                if argv[3] == "worker" and "worker" not in app.cli.commands:
                    continue
                command, rest = app.cli, argv[3:]
                while isinstance(command, click.Group):
                    command = command.commands[rest.pop(0)]
                command.make_context(command.name, rest)  # click.UsageError on an option it does not take
            else:
                assert argv[0].startswith("/usr/bin/"), (unit.name, argv)
            checked += 1
    assert checked >= 5


def test_the_example_settings_file_parses():
    environ = dict(line.split("=", 1) for line in (DEPLOY / "listings.env").read_text().splitlines()
                   if line and not line.startswith("#"))
    settings = load_settings(environ)
    assert settings["DATABASE_URL"].startswith("postgresql://") and settings["FORWARDED_PROXIES"] == 1


# What Debian's nginx package enables: a site answering any host name on the port.
DEFAULT_SITE = """server {{
    listen {listen} default_server;
    server_name _;
    return 200 "the default site\\n";
}}
"""


class NginxWithSites:
    """nginx with the fault tests' private nginx.conf (tests/faults/proxy.py), its site file holding `sites`
    one after the other, as nginx's conf.d and sites-enabled files end up in one `http` block."""

    def __init__(self, directory, sites):
        self.dir = pathlib.Path(directory) / "nginx"
        self.dir.mkdir()
        (self.dir / "site.conf").write_text("\n".join(sites))
        user = "user root;" if os.geteuid() == 0 else ""
        (self.dir / "nginx.conf").write_text(MAIN.format(dir=self.dir, user=user))
        self.command = [nginx_binary(), "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                        "-c", str(self.dir / "nginx.conf")]

    def test(self):
        return subprocess.run([*self.command, "-t"], capture_output=True, text=True, timeout=30)

    def __enter__(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self

    def __exit__(self, *exc_info):
        self.process.terminate()
        self.process.wait(10)


def wait_for(port):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


def test_the_site_goes_beside_a_default_site_and_answers_only_its_name(tmp_path):
    port = free_port()
    listen = f"127.0.0.1:{port}"
    site = render(listen, f"127.0.0.1:{free_port()}", 1048576, server_name="api.example.test")
    nginx = NginxWithSites(tmp_path, [DEFAULT_SITE.format(listen=listen), site])
    checked = nginx.test()
    assert checked.returncode == 0 and "test is successful" in checked.stderr, checked.stderr
    with nginx:
        wait_for(port)
        ours = exchange(port, b"GET /health HTTP/1.1\r\nHost: api.example.test\r\nConnection: close\r\n\r\n")
        theirs = exchange(port, b"GET /health HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n")
    # gunicorn is not running: the site answers with its own 503 error object; the default site is untouched.
    assert (ours[0], ours[2]["error"]) == (503, "service_unavailable")
    assert theirs[0] == 200


def test_only_the_bulk_upload_takes_bodies_past_max_content_length(tmp_path):
    """J1's path has its own body limit (BULK_MAX_BYTES), with its own 413 message; every other path keeps
    MAX_CONTENT_LENGTH's. gunicorn is not running, so a body nginx accepts meets its 503."""
    port = free_port()
    site = render(f"127.0.0.1:{port}", f"127.0.0.1:{free_port()}", 1048576, server_name="api.example.test",
                  bulk_max_body_bytes=3 * 1048576)
    nginx = NginxWithSites(tmp_path, [site])
    assert nginx.test().returncode == 0

    def post(path, length, send=True):
        head = (f"POST {path} HTTP/1.1\r\nHost: api.example.test\r\nContent-Type: text/csv\r\n"
                f"Content-Length: {length}\r\nConnection: close\r\n\r\n").encode()
        status, _, body = exchange(port, head + (b"x" * length if send else b""))
        assert isinstance(body, dict), (status, body)
        return status, body["error"], body["message"]

    with nginx:
        wait_for(port)
        two_mib = 2 * 1048576
        assert post("/compatibilities/bulk", two_mib)[:2] == (503, "service_unavailable")
        assert post("/items/MLA1/compatibilities", two_mib, send=False) == (
            413, "request_entity_too_large", "Request body too large: the limit is 1 MiB")
        status, error, message = post("/compatibilities/bulk", 4 * 1048576, send=False)
        assert (status, error) == (413, "request_entity_too_large") and "3145728 bytes (BULK_MAX_BYTES)" in message
        # An exact match: a path below J1's keeps the server's limit.
        assert post("/compatibilities/bulk/x", two_mib, send=False)[0] == 413


def self_signed(directory, name):
    key, certificate = directory / "key.pem", directory / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-keyout", str(key),
                    "-out", str(certificate), "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}"],
                   check=True, capture_output=True, timeout=60)
    return certificate, key


def test_the_tls_site_serves_https_with_the_certificate_and_redirects_plain_http(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    name = "api.example.test"
    certificate, key = self_signed(tmp_path, name)
    https, http = free_port(), free_port()
    site = render(f"127.0.0.1:{https}", f"127.0.0.1:{free_port()}", 1048576, server_name=name,
                  tls=(str(certificate), str(key)), redirect_listen=f"127.0.0.1:{http}")
    assert f"ssl_certificate {certificate};" in site and f"listen 127.0.0.1:{https} ssl;" in site
    nginx = NginxWithSites(tmp_path, [site])
    checked = nginx.test()
    assert checked.returncode == 0, checked.stderr
    with nginx:
        wait_for(https)
        context = ssl.create_default_context(cafile=str(certificate))
        with socket.create_connection(("127.0.0.1", https), timeout=5) as raw, \
                context.wrap_socket(raw, server_hostname=name) as tls:
            tls.sendall(f"GET /health HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := tls.recv(65536):
                answer += chunk
        redirected = exchange(http, f"POST /oauth/token HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n"
                                    "Content-Length: 0\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503") and json.loads(body)["error"] == "service_unavailable"
    assert redirected[0] == 308 and redirected[1]["location"] == f"https://{name}/oauth/token"


def flask(url, *args):
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, env=app_env(url),
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_restored_backup_exports_what_the_database_held(backend, tmp_path):
    if backend == "postgresql" and shutil.which("pg_dump") is None:
        pytest.fail("pg_dump and pg_restore are needed for PostgreSQL's backups (apt-get install postgresql-client)")
    backups = tmp_path / "backups"
    backups.mkdir()
    with fresh_database(backend, tmp_path) as url:
        load_database(url, full_bundle(), tmp_path)
        before = flask_cli(url, "catalog", "export", "-")
        written = flask(url, "db", "backup", str(backups))
        assert written.returncode == 0, written.stderr
        (backup,) = backups.iterdir()
        assert written.stdout.startswith(f"backup written: {backup} (")

        flask_cli(url, "history", "purge", "--days", "0", "--yes")  # a loss to recover from
        assert flask_cli(url, "catalog", "export", "-") != before
        refused = flask(url, "db", "restore", str(backup))
        assert refused.returncode == 1 and "pass --yes" in refused.stderr
        restored = flask(url, "db", "restore", str(backup), "--yes")
        assert restored.returncode == 0, restored.stderr

        assert flask_cli(url, "catalog", "export", "-") == before
        assert flask(url, "db", "status").returncode == 0
        again = flask(url, "db", "backup", str(backup))
        assert again.returncode == 1 and "a backup never overwrites one" in again.stderr


def test_the_readme_points_to_the_files_and_upgrades_in_order():
    readme = (pathlib.Path(ROOT) / "README.md").read_text()
    assert "app/deploy/systemd/" in readme and "app/deploy/listings.env" in readme
    assert "rm -f /etc/nginx" not in readme, "the site goes beside the others; it removes none"
    steps = readme[readme.index("## Upgrading"):readme.index("## Endpoint index")]
    assert steps.index("db backup") < steps.index("db upgrade") < steps.index("systemctl restart")
