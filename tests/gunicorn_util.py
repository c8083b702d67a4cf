"""A real gunicorn (`-c python:app.gunicorn_conf`) on a fresh database, for the multi-process tests.

The database is made and loaded the way an operator does it: `flask --app wsgi db upgrade`, then
`flask --app wsgi catalog import` of a bundle file. PostgreSQL databases are named `test_gc_<hex>`
and dropped afterwards.
"""
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
import uuid

from tests.helpers import PG_ADMIN_URL, pg_admin

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def fresh_database(backend, directory):
    """A database URL nobody else uses, removed at the end."""
    if backend == "sqlite":
        yield f"sqlite:///{directory}/gunicorn.db"
        return
    admin = pg_admin()
    name = f"test_gc_{uuid.uuid4().hex[:12]}"
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    finally:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def app_env(database_url, **extra):
    env = {**os.environ, "DATABASE_URL": database_url, "RATELIMIT_ENABLED": "false",
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.update({key: str(value) for key, value in extra.items()})
    return env


def flask_cli(database_url, *args):
    result = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT,
                            env=app_env(database_url), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def empty_database(directory):
    """A SQLite file with this code's schema and no rows, made by `db upgrade` as an operator does:
    gunicorn does not start on a database without it (SCHEMA_CHECK)."""
    url = f"sqlite:///{directory}/empty.db"
    flask_cli(url, "db", "upgrade")
    return url


def load_database(database_url, bundle, directory):
    """Schema by `db upgrade`, data by `catalog import`, both through the operator's CLI."""
    flask_cli(database_url, "db", "upgrade")
    path = os.path.join(str(directory), "bundle.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(bundle, f)
    flask_cli(database_url, "catalog", "import", path)


class Gunicorn:
    """gunicorn started with the production configuration; access log on stdout, errors on stderr.
    `wsgi` names another application module (a test's own, built with create_app)."""

    def __init__(self, database_url, directory, workers=4, wsgi="wsgi:app", **env):
        self.port = free_port()
        self.access_path = os.path.join(str(directory), "gunicorn.out")
        self.error_path = os.path.join(str(directory), "gunicorn.err")
        self.env = app_env(database_url, BIND=f"127.0.0.1:{self.port}", WEB_CONCURRENCY=workers,
                           GUNICORN_ACCESSLOG="-", **env)
        self.wsgi = wsgi
        self.process = None

    def __enter__(self):
        with open(self.access_path, "wb") as out, open(self.error_path, "wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "python:app.gunicorn_conf", self.wsgi],
                cwd=ROOT, env=self.env, stdout=out, stderr=err)
        self._wait_until_serving()
        return self

    def __exit__(self, *exc_info):
        self.process.terminate()
        try:
            self.process.wait(25)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)

    def _wait_until_serving(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError("gunicorn exited:\n" + self.errors())
            try:
                self.request("GET", "/health", timeout=2)
                return
            except OSError:
                time.sleep(0.2)
        raise AssertionError("gunicorn did not answer in time:\n" + self.errors())

    def request(self, method, path, body=None, headers=None, timeout=30):
        """(status, headers dict with lower-case names, parsed JSON body or text)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = None if body is None else json.dumps(body)
            all_headers = {"Content-Type": "application/json"} if body is not None else {}
            all_headers.update(headers or {})
            conn.request(method, path, body=data, headers=all_headers)
            response = conn.getresponse()
            raw = response.read().decode("utf-8", "replace")
            names = {name.lower(): value for name, value in response.getheaders()}
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = raw
            return response.status, names, parsed
        finally:
            conn.close()

    def access_log(self):
        with open(self.access_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def errors(self):
        with open(self.error_path, encoding="utf-8", errors="replace") as f:
            return f.read()
