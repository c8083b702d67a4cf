"""The JavaScript clients of tests/clients/ts/ (openapi-typescript with openapi-fetch, swagger-client), run
by node: their packages installed once by `npm ci` from the committed lock, the TypeScript program built
once per served document, both kept under ~/.cache/marketplace-listings-tests/ts/ between runs.

Without node and npm the tests are skipped, unless REQUIRE_NODE=1 (CI) makes that a failure."""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import uuid

import pytest

PACKAGE = pathlib.Path(__file__).parent / "ts"
CACHE = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / \
    "marketplace-listings-tests" / "ts"
SOURCES = ("client.ts", "tsconfig.json")


def _missing(why):
    if os.environ.get("REQUIRE_NODE") == "1":
        pytest.fail(f"{why} (REQUIRE_NODE=1)")
    pytest.skip(f"{why} (apt-get install nodejs npm; REQUIRE_NODE=1 makes this a failure)")


def _digest(*parts):
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def _run(command, cwd, timeout):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(map(str, command))}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result.stdout


def _publish(made, final):
    """Moves the directory `made` to `final` in one step; another worker that got there first wins."""
    try:
        os.rename(made, final)
    except OSError:
        if not final.is_dir():
            raise
        shutil.rmtree(made, ignore_errors=True)


def packages():
    """The directory holding package.json, its lock and node_modules as `npm ci` installed them."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        _missing("node and npm are not installed")
    manifest, lock = (PACKAGE / "package.json").read_bytes(), (PACKAGE / "package-lock.json").read_bytes()
    home = CACHE / f"packages-{_digest(manifest, lock)}"
    if (home / "node_modules" / ".installed").is_file():
        return home
    CACHE.mkdir(parents=True, exist_ok=True)
    work = CACHE / f".install-{uuid.uuid4().hex}"
    work.mkdir()
    try:
        (work / "package.json").write_bytes(manifest)
        (work / "package-lock.json").write_bytes(lock)
        # --ignore-scripts: nothing here needs an install script (one of swagger-client's dependencies
        # would report usage to its vendor); the registry only when the npm cache lacks a package.
        result = subprocess.run(["npm", "ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"],
                                cwd=work, capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            _missing(f"npm ci failed: {result.stderr[-2000:]}")
        (work / "node_modules" / ".installed").touch()
        _publish(work, home)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return home


def document_key(document):
    """What the generated types depend on: the document less `servers` (which may name the test's port)."""
    return json.dumps({k: v for k, v in document.items() if k != "servers"}, sort_keys=True).encode()


def typescript_client(document):
    """out/client.js, built from tests/clients/ts/client.ts against the types openapi-typescript generates
    from `document` (the served one) and compiled by `tsc --strict`; built once per document and source."""
    home = packages()
    sources = [(PACKAGE / name).read_bytes() for name in SOURCES]
    build = home / "build" / _digest(document_key(document), *sources)
    program = build / "out" / "client.js"
    if program.is_file():
        return program
    build.parent.mkdir(exist_ok=True)
    work = build.parent / f".build-{uuid.uuid4().hex}"
    work.mkdir()
    try:
        (work / "openapi.json").write_text(json.dumps(document))
        for name, source in zip(SOURCES, sources, strict=True):
            (work / name).write_bytes(source)
        bin_dir = home / "node_modules" / ".bin"
        _run([bin_dir / "openapi-typescript", "openapi.json", "--output", "schema.d.ts"], work, 300)
        _run([bin_dir / "tsc", "--project", "tsconfig.json", "--strict"], work, 300)
        _publish(work, build)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return program


def run_script(script, settings, timeout=120):
    """Runs `script` (a .js or .mjs file beside node_modules) with node; its one line of JSON, parsed."""
    return json.loads(_run(["node", str(script), json.dumps(settings)], script.parent, timeout))


def swagger_script():
    """tests/clients/ts/swagger.mjs, copied beside the installed packages (node resolves from the file)."""
    home = packages()
    source = (PACKAGE / "swagger.mjs").read_bytes()
    script = home / f"swagger-{_digest(source)}.mjs"
    if not script.is_file():
        temporary = home / f".swagger-{uuid.uuid4().hex}.mjs"
        temporary.write_bytes(source)
        os.replace(temporary, script)
    return script
