"""What a new user meets first (issue 15): `demo` prints the OAuth application and the address gunicorn
will really use, the README shows them, two gunicorn instances on one machine keep their own control
socket, and a production install of requirements.txt pulls no test tool."""
import json
import pathlib
import re
import subprocess
import sys
import time

import pytest

from app.config import gunicorn_bind, local_url
from app.data.users import APPLICATIONS
from tests.bundles import SELLER, TOKENS, base_bundle
from tests.clients.wire import post_chunked
from tests.gunicorn_util import Gunicorn, fresh_database, load_database

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_demo_prints_the_oauth_application_and_the_port_gunicorn_will_use(app, monkeypatch):
    monkeypatch.setenv("PORT", "9123")
    monkeypatch.delenv("BIND", raising=False)
    result = app.test_cli_runner().invoke(args=["demo", "--force"])
    assert result.exit_code == 0, result.output
    demo_app = APPLICATIONS[0]
    for value in (demo_app["client_id"], demo_app["client_secret"], demo_app["redirect_uri"]):
        assert value in result.stdout
    assert "http://127.0.0.1:9123" in result.stdout and ":8000" not in result.stdout
    assert "listens on 127.0.0.1:9123 (this machine only)" in result.stdout


def test_gunicorn_bind_follows_bind_then_port():
    # Loopback unless told otherwise: slow clients reach gunicorn only through the buffering proxy.
    assert gunicorn_bind({}) == "127.0.0.1:8000"
    assert gunicorn_bind({"PORT": "9000"}) == "127.0.0.1:9000"
    assert gunicorn_bind({"BIND": "0.0.0.0:8000"}) == "0.0.0.0:8000"
    assert gunicorn_bind({"PORT": "9000", "BIND": "127.0.0.1:7000"}) == "127.0.0.1:7000"
    assert local_url("0.0.0.0:9000") == "http://127.0.0.1:9000"
    assert local_url("unix:/run/app.sock") == "unix:/run/app.sock"


def test_readme_shows_the_demo_oauth_application_and_the_gunicorn_settings():
    demo_app = APPLICATIONS[0]
    for value in (demo_app["client_id"], demo_app["client_secret"], demo_app["redirect_uri"]):
        assert f"`{value}`" in README, value
    for variable in ("BIND", "PORT", "WEB_CONCURRENCY", "GUNICORN_CONTROL_SOCKET"):  # in a settings row
        assert re.search(rf"^\|[^\n|]*`{variable}`[^\n|]*\|", README, re.MULTILINE), variable


def requirement_names(path):
    names = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.append(re.split(r"[=<>~!\[ ]", line)[0].lower())
    return names


def test_runtime_requirements_pull_no_test_tool_and_dev_requirements_include_them():
    runtime = requirement_names(ROOT / "requirements.txt")
    assert not {"pytest", "pytest-xdist", "schemathesis", "ruff", "pyinstrument"} & set(runtime)
    assert {"flask-compress", "swagger-ui-bundle"} <= set(runtime)
    dev = ROOT / "tests" / "requirements.txt"
    assert "-r ../requirements.txt" in dev.read_text().splitlines()
    assert {"pytest", "schemathesis", "ruff", "authlib", "requests-oauthlib", "melisdk",
            "openapi-python-client"} <= set(requirement_names(dev))
    assert "pip install -q -r tests/requirements.txt && .venv/bin/python -m pytest" in README


def control(socket_path):
    """gunicornc's answer on a control socket (JSON)."""
    result = subprocess.run([str(pathlib.Path(sys.executable).parent / "gunicornc"), "-s", str(socket_path),
                             "-c", "show workers", "-j"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow
def test_two_gunicorn_instances_keep_their_own_control_socket(tmp_path):
    runtime = tmp_path / "run"
    for name in ("run", "first", "second"):
        (tmp_path / name).mkdir()
    with fresh_database("sqlite", tmp_path) as url:
        load_database(url, base_bundle(), tmp_path)
        with Gunicorn(url, tmp_path / "first", workers=1, XDG_RUNTIME_DIR=runtime) as first:
            with Gunicorn(url, tmp_path / "second", workers=1, XDG_RUNTIME_DIR=runtime) as second:
                sockets = {g.port: runtime / f"gunicorn-127.0.0.1_{g.port}.ctl" for g in (first, second)}
                # The arbiter creates its socket just after it starts answering: wait for it (bounded).
                expected, deadline = sorted(sockets.values()), time.monotonic() + 15
                while sorted(runtime.glob("gunicorn-*.ctl")) != expected and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert sorted(runtime.glob("gunicorn-*.ctl")) == expected
                assert all(control(path) for path in sockets.values())
                # The production server refuses an oversized chunked body with 413 too.
                big = json.dumps({"products": [{"id": "MLA90003", "creation_source": "DEFAULT",
                                                "note": "x" * 2 ** 21}]}).encode()
                status, body = post_chunked(f"http://127.0.0.1:{second.port}", "/items/MLA101/compatibilities",
                                            big, {"Authorization": f"Bearer {TOKENS[SELLER]}"})
                assert (status, body["error"]) == (413, "request_entity_too_large")
            # Stopping one instance leaves the other's socket in place and answering.
            assert control(sockets[first.port])
