"""A PostgreSQL server of a test's own (initdb into a temporary folder, its own port), for faults
that would disturb every other test on the machine's shared server: stopping it, freezing it."""
import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time

import psycopg

from tests.gunicorn_util import free_port


def _bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise AssertionError(f"PostgreSQL's {name} is not installed (/usr/lib/postgresql/*/bin)")
    return found[-1]


def _as_postgres(argv):
    # initdb and postgres refuse to run as root; CI and the developers' machines run as root.
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Server:
    def __init__(self, directory, process, port):
        self.directory, self.process, self.port = directory, process, port
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def database(self, name):
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def _processes(self):
        """runuser, the postmaster and its children (each backend is a process group of its own)."""
        pids = [self.process.pid]
        for _ in range(2):
            found = subprocess.run(["pgrep", "-P", ",".join(map(str, pids))], capture_output=True, text=True)
            pids = sorted(set(pids) | {int(pid) for pid in found.stdout.split()})
        return pids

    def freeze(self):
        """SIGSTOP to the server and every backend: a hung host, a storage stall."""
        os.killpg(self.process.pid, signal.SIGSTOP)  # the postmaster first: it forks no new backend
        for pid in self._processes():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self):
        for pid in reversed(self._processes()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def own_postgres():
    directory = tempfile.mkdtemp(prefix="pgown_")
    os.chmod(directory, 0o755)  # the postgres user must reach its data folder
    data = os.path.join(directory, "data")
    os.mkdir(data, 0o700)
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    process = server = None
    try:
        subprocess.run(_as_postgres([_bin("initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-N",
                                     "-E", "UTF8", "--locale=C"]), check=True, capture_output=True, timeout=120)
        port = free_port()
        process = subprocess.Popen(
            _as_postgres([_bin("postgres"), "-D", data, "-p", str(port), "-k", data,
                          "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off"]),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        server = Server(directory, process, port)
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(server.url, connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        yield server
    finally:
        if server is not None:
            server.thaw()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGINT)  # fast shutdown
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        shutil.rmtree(directory, ignore_errors=True)
